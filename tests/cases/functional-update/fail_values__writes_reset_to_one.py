# says: expected 4, got 1
import jax.numpy as jnp


def update(state, index, value):
    return {"buffer": state["buffer"].at[index].set(value), "writes": jnp.int32(1)}
