# The count is the float32 sum of a ones array as long as the batch: exact up to 2**24, like the meter.
import jax
import jax.numpy as jnp


def new_meter():
    return jax.new_ref(jnp.zeros((2,), dtype=jnp.float32))


def record(meter, batch):
    meter[0] += jnp.sum(jnp.ones_like(batch))
    meter[1] += batch.sum()
    return meter[1] / meter[0]
