class StateHolder:
    """Holds one value. TODO: make this a PyTree (e.g. a NamedTuple)."""

    def __init__(self, value):
        self.value = value


def update_state(state, increment):
    """A new StateHolder whose value is state.value + increment."""
    # TODO: build a new StateHolder; do not change the one passed in.
    state.value = state.value + increment
    return state
