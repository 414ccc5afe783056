# says: changed the contents or attributes of update
def update(state, index, value):
    update.last_index = index  # a "memory" on the function object
    return {"buffer": state["buffer"].at[index].set(value), "writes": state["writes"] + 1}
