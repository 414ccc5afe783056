"""A global step counter incremented inside a jitted function: it counts traces, not steps."""
import jax
import jax.numpy as jnp

steps_taken = 0


@jax.jit
def step(w):
    global steps_taken
    steps_taken += 1  # finding: side-effect
    return w * 0.9


w = jnp.ones(2)
for _ in range(5):
    w = step(w)
print("steps taken:", steps_taken)
