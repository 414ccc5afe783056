from typing import NamedTuple

import jax.numpy as jnp


class StateHolder(NamedTuple):
    value: jnp.ndarray


def update_state(state, increment):
    return state._replace(value=state.value + increment)
