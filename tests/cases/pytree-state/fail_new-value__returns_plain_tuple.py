from typing import NamedTuple
import jax


class StateHolder(NamedTuple):
    value: jax.Array


def update_state(state, increment):
    return (state.value + increment,)
