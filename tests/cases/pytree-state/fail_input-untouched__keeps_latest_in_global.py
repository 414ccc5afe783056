from typing import NamedTuple
import jax


class StateHolder(NamedTuple):
    value: jax.Array


latest = None


def update_state(state, increment):
    global latest
    latest = StateHolder(state.value + increment)
    return latest
