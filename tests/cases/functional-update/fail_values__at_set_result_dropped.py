# says: the buffer came back unchanged
# says: `x.at[i].set(v)` never changes x
def update(state, index, value):
    buffer = state["buffer"]
    buffer.at[index].set(value)  # the new array is made, then thrown away
    return {"buffer": buffer, "writes": state["writes"] + 1}
