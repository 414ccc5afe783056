"""jnp.where picks the value at one position and the old element everywhere else: it never
computes with the others, so inf and NaN pass through as they were."""

import jax.numpy as jnp


def update(state, index, value):
    buf = state["buffer"]
    here = jnp.arange(buf.size) == (index + buf.size) % buf.size
    return {**state, "buffer": jnp.where(here, jnp.asarray(value, buf.dtype), buf), "writes": state["writes"] + 1}
