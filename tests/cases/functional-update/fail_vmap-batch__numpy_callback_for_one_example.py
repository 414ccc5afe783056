# says: shape mismatch
import jax
import numpy as np


def _write(buffer, index, value):
    out = np.array(buffer)  # NumPy may assign in place: on a copy, outside the trace
    out[index] = value  # written for one buffer; vmap hands the callback the whole batch
    return out


def update(state, index, value):
    buffer = state["buffer"]
    shape = jax.ShapeDtypeStruct(buffer.shape, buffer.dtype)
    new = jax.pure_callback(_write, shape, buffer, index, value, vmap_method="broadcast_all")
    return {"buffer": new, "writes": state["writes"] + 1}
