# says: update's default log
# says: mutable default argument
def update(state, index, value, log=[]):
    log.append((index, value))
    return {"buffer": state["buffer"].at[index].set(value), "writes": state["writes"] + 1}
