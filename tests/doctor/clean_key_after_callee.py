"""A key threaded through a Python loop, split before a helper draws from its half: every draw
new."""

import jax
import jax.numpy as jnp


def jitter(x, key):
    return x + 0.05 * jax.random.normal(key, x.shape)


w = jnp.ones(3)
key = jax.random.PRNGKey(1)
for step in range(5):
    key, noise_key = jax.random.split(key)
    w = jitter(w, noise_key)
    key, sub = jax.random.split(key)
    w = w - 0.1 * jax.random.uniform(sub, w.shape)
print(w)
