class StateHolder:
    def __init__(self, value):
        self.value = value


def update_state(state, increment):
    return StateHolder(state.value + increment)
