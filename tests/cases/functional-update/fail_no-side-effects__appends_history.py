# says: changed the contents or attributes of history
# says: BatchTracer
# says: once per trace
history = []


def update(state, index, value):
    history.append(value)  # a log of every write, kept on the side
    return {"buffer": state["buffer"].at[index].set(value), "writes": state["writes"] + 1}
