# says: was written at position 0
import jax.numpy as jnp


def update(state, index, value):
    n = state["buffer"].shape[0]
    safe = jnp.clip(index, 0, n - 1)  # "keeps the index in range", and sends -1 to the front
    return {"buffer": state["buffer"].at[safe].set(value), "writes": state["writes"] + 1}
