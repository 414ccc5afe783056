def update(state, index, value):
    n = state["buffer"].shape[0]
    if index < 0:  # a Python branch on a value that is a tracer under jit
        index = index + n
    return {"buffer": state["buffer"].at[index].set(value), "writes": state["writes"] + 1}
