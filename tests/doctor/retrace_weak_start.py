"""A running mean whose state starts as Python numbers: the first step returns typed arrays,
so the jitted update is traced a second time."""
import jax
import jax.numpy as jnp


@jax.jit
def update(state, x):
    total, n = state
    return (total + x, n + 1)


state = (0.0, 0)
for x in jnp.arange(6.0):
    state = update(state, x)  # finding: retrace
print("mean", float(state[0] / state[1]))
