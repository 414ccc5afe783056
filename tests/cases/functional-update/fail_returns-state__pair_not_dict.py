# says: returned a tuple of 2 values
def update(state, index, value):
    return state["buffer"].at[index].set(value), state["writes"] + 1
