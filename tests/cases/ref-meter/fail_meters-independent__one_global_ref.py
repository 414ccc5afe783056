# says: returned the same Ref object twice
import jax
import jax.numpy as jnp

_METER = jax.new_ref(jnp.zeros(2, jnp.float32))


def new_meter():
    _METER[...] = jnp.zeros(2, jnp.float32)    # "resets" the one shared meter
    return _METER


def record(meter, batch):
    meter[...] += jnp.stack([jnp.float32(batch.size), jnp.sum(batch)])
    return meter[1] / meter[0]
