# says: returned None
# says: silently lost
def update(state, index, value):
    # The Python habit: change the caller's object, return nothing.
    state["buffer"] = state["buffer"].at[index].set(value)
    state["writes"] = state["writes"] + 1
