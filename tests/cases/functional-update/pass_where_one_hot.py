"""Writes by selecting with jnp.where on a one-hot position: exact at any magnitude."""

import jax.numpy as jnp


def update(state, index, value):
    buf = state["buffer"]
    here = jnp.arange(buf.shape[0]) == index % buf.shape[0]
    return {"buffer": jnp.where(here, jnp.asarray(value, buf.dtype), buf), "writes": state["writes"] + 1}
