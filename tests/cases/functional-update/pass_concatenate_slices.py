"""The new buffer assembled from the slices before and after the position, with lax's dynamic
slicing (a traced index works): no arithmetic on the elements at all."""

import jax.numpy as jnp
from jax import lax


def update(state, index, value):
    buf = state["buffer"]
    n = buf.shape[0]
    i = jnp.asarray(index, jnp.int32) % n
    one = jnp.full((1,), value, buf.dtype)
    new = lax.dynamic_update_slice(buf, one, (i,))
    return {"writes": state["writes"] + jnp.int32(1), "buffer": new}
