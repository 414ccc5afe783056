# drill: 3 in-place-updates
# says: JAX arrays are immutable
def update(state, index, value):
    buffer = state["buffer"]
    buffer[index] = value
    return {"buffer": buffer, "writes": state["writes"] + 1}
