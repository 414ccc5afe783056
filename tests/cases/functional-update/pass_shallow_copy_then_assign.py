def update(state, index, value):
    new_state = dict(state)  # a new dict: assigning into it leaves the caller's alone
    new_state["buffer"] = state["buffer"].at[index].set(value)
    new_state["writes"] += 1  # rebinds the key of the copy, not the caller's
    return new_state
