# drill: 2 in-place-updates
# says: the caller's dict has changed
# says: state['writes'] is now 6 (it was 5)
# says: returned that same dict
# says: silently lost
def update(state, index, value):
    state["buffer"] = state["buffer"].at[index].set(value)
    state["writes"] = state["writes"] + 1
    return state
