"""A key split into two, each half drawn from once, the first carried on."""

import jax
import jax.numpy as jnp

key = jax.random.PRNGKey(3)
params = jnp.zeros(4)
for step in range(6):
    next_key, sub = jax.random.split(key)
    next_key, noise_key = jax.random.split(next_key)
    noise = jax.random.normal(noise_key, params.shape)
    params = params + 0.01 * noise + 0.001 * jax.random.uniform(sub, params.shape)
    key = next_key
print(params)
