# says: reassigned total_writes
total_writes = 0


def update(state, index, value):
    global total_writes
    total_writes += 1
    return {"buffer": state["buffer"].at[index].set(value), "writes": state["writes"] + 1}
