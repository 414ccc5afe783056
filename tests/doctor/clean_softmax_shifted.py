# doctor: --nans
"""A softmax written by hand that subtracts the max before exp: finite for large logits."""

import jax
import jax.numpy as jnp


@jax.jit
def probs(logits):
    e = jnp.exp(logits - jnp.max(logits, axis=-1, keepdims=True))
    total = jnp.sum(e, axis=-1, keepdims=True)
    return e / total


print(probs(jnp.array([1.0, 2.0, 3.0])))
print(probs(jnp.array([10.0, 200.0, 3.0])))
