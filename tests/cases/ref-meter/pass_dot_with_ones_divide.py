"""The sum as a dot product with ones, the update written as a new value, the mean with jnp.divide:
an empty batch adds 0 to both."""

import jax
import jax.numpy as jnp


def new_meter():
    return jax.new_ref(jnp.array([0.0, 0.0], jnp.float32))


def record(meter, batch):
    added = jnp.array([batch.shape[0], batch @ jnp.ones_like(batch)], jnp.float32)
    meter[...] = meter[...] + added
    count, total = meter[...]
    return jnp.divide(total, count)
