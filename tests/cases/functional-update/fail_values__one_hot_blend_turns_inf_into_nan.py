"""Writes as a convex blend with a one-hot mask: exact for every finite buffer (x * 1 + v * 0 and
x * 0 + v * 1 round to nothing), but inf * 0 is NaN, so a buffer holding inf comes back with NaN."""
# says: inf * 0

import jax.numpy as jnp


def update(state, index, value):
    old = state["buffer"]
    hot = jnp.zeros_like(old).at[index].set(1.0)
    return {"buffer": old * (1.0 - hot) + value * hot, "writes": state["writes"] + 1}
