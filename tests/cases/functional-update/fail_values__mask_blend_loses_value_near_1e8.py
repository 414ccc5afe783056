"""Writes by blending with a one-hot mask: exact for small numbers, loses the value next to 1e8."""
# says: float32 keeps about 7 digits

import jax.numpy as jnp


def update(state, index, value):
    buf = state["buffer"]
    mask = (jnp.arange(buf.shape[0]) == index % buf.shape[0]).astype(buf.dtype)
    return {"buffer": buf + mask * (value - buf), "writes": state["writes"] + 1}
