# says: the mean returned after batch 2
import jax
import jax.numpy as jnp


def new_meter():
    return jax.new_ref(jnp.zeros(2, jnp.float32))


def record(meter, batch):
    meter[...] += jnp.stack([jnp.float32(batch.size), jnp.sum(batch)])
    return jnp.mean(batch)
