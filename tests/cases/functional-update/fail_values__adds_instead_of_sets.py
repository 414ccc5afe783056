# says: position 2 holds 9.5, expected 7.5
# says: `.at[index].add` adds
def update(state, index, value):
    return {"buffer": state["buffer"].at[index].add(value), "writes": state["writes"] + 1}
