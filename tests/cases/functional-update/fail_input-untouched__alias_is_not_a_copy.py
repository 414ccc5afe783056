# says: `new = state` is the same dict under a second name
def update(state, index, value):
    new = state  # looks like a new state; it is the caller's dict
    new["buffer"] = new["buffer"].at[index].set(value)
    new["writes"] += 1
    return {"buffer": new["buffer"], "writes": new["writes"]}
