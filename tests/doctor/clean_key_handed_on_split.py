"""A jitted step that splits its key, draws from one half and hands the other back: new noise on
every step."""

import jax
import jax.numpy as jnp


@jax.jit
def langevin_step(x, key):
    key, sub = jax.random.split(key)
    noise = jax.random.normal(sub, x.shape)
    x = x - 0.01 * x + 0.1 * noise
    return x, key


x = jnp.ones(4)
key = jax.random.PRNGKey(0)
for _ in range(30):
    x, key = langevin_step(x, key)
print(x)
