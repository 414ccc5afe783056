def update(state, index, value):
    """A new state: `value` at buffer[index], writes + 1.

    Never change `state`.
    """
    # TODO: this is the NumPy habit. It changes the caller's dict in
    # place, and a JAX array refuses item assignment. Build and return
    # a new state instead.
    state["buffer"][index] = value
    state["writes"] = state["writes"] + 1
    return state
