# says: writes returned by update(state, 2, 7.5)
# says: each update adds exactly one
def update(state, index, value):
    return {"buffer": state["buffer"].at[index].set(value), "writes": state["writes"]}
