"""Counts a write only when it changes the buffer: writing the value already there is not counted."""
# says: writing the value already at that position is a write too
def update(state, index, value):
    buf = state["buffer"]
    changed = (buf[index] != value).astype(state["writes"].dtype)
    return {"buffer": buf.at[index].set(value), "writes": state["writes"] + changed}
