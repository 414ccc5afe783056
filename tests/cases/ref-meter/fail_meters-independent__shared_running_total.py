# says: meter a after recording [6] into meter b
import jax
import jax.numpy as jnp

_SHARED = jax.new_ref(jnp.zeros(2, jnp.float32))   # one store behind every meter


def new_meter():
    return jax.new_ref(jnp.zeros(2, jnp.float32))


def record(meter, batch):
    _SHARED[...] += jnp.stack([jnp.float32(batch.size), jnp.sum(batch)])
    meter[...] = _SHARED[...]
    return meter[1] / meter[0]
