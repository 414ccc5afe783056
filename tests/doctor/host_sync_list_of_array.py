"""Each step's predictions turned into a Python list of device scalars (list(preds)), kept for later."""
import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    g = jax.grad(lambda v: jnp.mean((v * x - 1.0) ** 2))(w)
    return w - 0.1 * g, w * x


w = jnp.float32(0.0)
x = jnp.arange(6.0)
kept = []
for i in range(30):
    w, preds = step(w, x)
    kept.extend(list(preds))  # finding: host-sync
print(len(kept))
