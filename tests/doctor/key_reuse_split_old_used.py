"""A key split into two, then the old key drawn from as well: the draw repeats what the split
made. The line to change is the draw (it should take a half of the split)."""

import jax
import jax.numpy as jnp

key = jax.random.PRNGKey(3)
params = jnp.zeros(4)
for step in range(6):
    next_key, sub = jax.random.split(key)
    noise = jax.random.normal(key, params.shape)  # finding: key-reuse
    params = params + 0.01 * noise + 0.001 * jax.random.uniform(sub, params.shape)
    key = next_key
print(params)
