# doctor: --nans
"""A layer norm from the centred values' variance, with an epsilon: finite for a constant row."""

import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    std = jnp.sqrt(var + 1e-5)
    return (x - mean) / std


print(normalize(jnp.array([[1.0, 2.0, 3.0]])))
print(normalize(jnp.array([[1.1, 1.1, 1.1]])))
