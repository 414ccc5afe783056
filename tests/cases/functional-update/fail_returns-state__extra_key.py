# Returns the new state with an extra key it finds handy; the task asks for the same two keys.
def update(state, index, value):
    return {
        "buffer": state["buffer"].at[index].set(value),
        "writes": state["writes"] + 1,
        "last_index": index,
    }
