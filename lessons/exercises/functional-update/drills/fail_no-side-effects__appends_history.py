# drill: 5 trace-time-python
# says: changed the contents or attributes of history
# says: BatchTracer
# says: once per trace
history = []


def update(state, index, value):
    history.append(value)
    buffer = state["buffer"].at[index].set(value)
    return {"buffer": buffer, "writes": state["writes"] + 1}
