"""Adds the batch's mean times its size as the sum: the same number for any batch with values in
it, but the mean of an empty batch is NaN, and from then on the meter holds NaN."""
# says: empty batch

import jax
import jax.numpy as jnp


def new_meter():
    return jax.new_ref(jnp.zeros(2, jnp.float32))


def record(meter, batch):
    n = jnp.float32(batch.size)
    meter[...] += jnp.stack([n, jnp.mean(batch) * n])
    count, total = meter[...]
    return total / count
