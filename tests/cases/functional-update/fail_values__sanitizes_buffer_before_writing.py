"""Writes with .at[].set, but 'cleans' the buffer first with nan_to_num: inf and NaN the caller
stored come back as huge numbers and 0. Nothing else differs."""
# says: NaN

import jax.numpy as jnp


def update(state, index, value):
    clean = jnp.nan_to_num(state["buffer"])
    return {"buffer": clean.at[index].set(value), "writes": state["writes"] + 1}
