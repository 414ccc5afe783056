# says: os.environ['BUFFER_WRITES']
# Wrong: besides state['writes'], the writes are also counted in an environment variable.
import os

import jax.numpy as jnp


def update(state, index, value):
    os.environ["BUFFER_WRITES"] = str(int(os.environ.get("BUFFER_WRITES", "0")) + 1)
    return {"buffer": state["buffer"].at[index].set(value), "writes": state["writes"] + 1}
