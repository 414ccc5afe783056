from functools import partial
from typing import NamedTuple
import jax


class StateHolder(NamedTuple):
    value: jax.Array


@partial(jax.jit, static_argnums=0)
def update_state(state, increment):
    return StateHolder(state.value + increment)
