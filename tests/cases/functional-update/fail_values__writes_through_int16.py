"""Writes counted through int16: wraps after 32767 (a long stream)."""
# says: int16
import jax.numpy as jnp


def update(state, index, value):
    buf = state["buffer"].at[index].set(value)
    writes = (state["writes"].astype(jnp.int16) + jnp.int16(1)).astype(jnp.int32)
    return {"buffer": buf, "writes": writes}
