"""A write as linear algebra: keep the others with a diagonal selection matrix, add the value in
its slot. A matrix product sums 0 * x over every element, and 0 * inf is NaN."""
# says: NaN

import jax.numpy as jnp


def update(state, index, value):
    buf = state["buffer"]
    n = buf.shape[0]
    slot = jnp.arange(n) == jnp.mod(index, n)
    keep = jnp.diag(jnp.where(slot, 0.0, 1.0).astype(buf.dtype))
    return dict(buffer=keep @ buf + jnp.where(slot, value, 0.0).astype(buf.dtype), writes=state["writes"] + 1)
