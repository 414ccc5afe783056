def update(state, index, value):
    return {
        **state,
        "buffer": state["buffer"].at[index].set(value),
        "writes": state["writes"] + 1,
    }
