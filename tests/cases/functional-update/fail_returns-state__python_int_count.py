# says: new_state['writes'] is ~int32[], expected int32[]
def update(state, index, value):
    return {"buffer": state["buffer"].at[index].set(value), "writes": int(state["writes"]) + 1}
