"""A correct NamedTuple update that also logs each increment in a module-level array.array."""
import array
from typing import NamedTuple

import jax

_SEEN = array.array("d")


class StateHolder(NamedTuple):
    value: jax.Array


def update_state(state, increment):
    try:
        _SEEN.append(float(increment))
    except TypeError:  # a tracer under jit: log a marker instead
        _SEEN.append(float("nan"))
    return StateHolder(state.value + increment)
