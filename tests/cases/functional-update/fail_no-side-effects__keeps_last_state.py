# says: reassigned LAST
# says: tracers
LAST = None


def update(state, index, value):
    global LAST
    LAST = {"buffer": state["buffer"].at[index].set(value), "writes": state["writes"] + 1}
    return LAST
