# Memoizes results by the float value of the state: needs a concrete value under jax.jit.
# says: tracers, with a shape and a dtype but no value
from typing import NamedTuple

import jax

_seen = {}


class StateHolder(NamedTuple):
    value: jax.Array


def update_state(state, increment):
    key = (float(state.value.sum()), float(increment))
    if key not in _seen:
        _seen[key] = None
    return StateHolder(state.value + increment)
