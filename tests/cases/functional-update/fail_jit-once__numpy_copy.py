import jax.numpy as jnp
import numpy as np


def update(state, index, value):
    buffer = np.array(state["buffer"])  # a writable NumPy copy: fine eagerly, impossible on a tracer
    buffer[index] = value
    return {"buffer": jnp.asarray(buffer), "writes": state["writes"] + 1}
