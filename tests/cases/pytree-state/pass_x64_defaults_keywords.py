import jax
jax.config.update("jax_enable_x64", True)
from typing import NamedTuple


class StateHolder(NamedTuple):
    value: jax.Array = 0.0


def update_state(state, increment=1.0):
    return StateHolder(value=state.value + increment)
