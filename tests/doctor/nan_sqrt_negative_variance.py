# doctor: --nans
"""A layer norm whose variance is E[x^2] - E[x]^2: rounding makes it slightly negative for a
constant row of 1.1s, and its sqrt is NaN, the first op to hold one; the division after it only
spreads it. (The fix is the centred variance, or a clamp, feeding that sqrt.)"""

import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(x * x, axis=-1, keepdims=True) - mean * mean
    std = jnp.sqrt(var)  # finding: nan
    return (x - mean) / std


print(normalize(jnp.array([[1.0, 2.0, 3.0]])))
print(normalize(jnp.array([[1.1, 1.1, 1.1]])))
