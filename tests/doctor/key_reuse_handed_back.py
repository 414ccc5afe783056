"""A jitted step that draws noise from its key and hands the same key back for the next step:
every step draws the same noise. The line to change is the step's return."""

import jax
import jax.numpy as jnp


@jax.jit
def langevin_step(x, key):
    noise = jax.random.normal(key, x.shape)
    x = x - 0.01 * x + 0.1 * noise
    return x, key  # finding: key-reuse


x = jnp.ones(4)
key = jax.random.PRNGKey(0)
for _ in range(30):
    x, key = langevin_step(x, key)
print(x)
