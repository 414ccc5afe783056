# says: not a jax.Ref
import jax.numpy as jnp


def new_meter():
    return jnp.zeros(2, jnp.float32)


def record(meter, batch):
    meter = meter + jnp.stack([jnp.float32(batch.size), jnp.sum(batch)])
    return meter[1] / meter[0]
