# says: nothing was written
# says: index -1 of a buffer of 5 is position 4
import jax.numpy as jnp


def update(state, index, value):
    buffer = state["buffer"]
    # Compares positions 0..n-1 with index as given: a negative index matches nothing.
    hit = jnp.arange(buffer.shape[0]) == index
    return {"buffer": jnp.where(hit, value, buffer), "writes": state["writes"] + 1}
