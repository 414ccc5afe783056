# says: _UPDATES
# Wrong: a WeakKeyDictionary keyed by the state's class counts the updates made.
import weakref
from typing import NamedTuple

import jax

_UPDATES = weakref.WeakKeyDictionary()


class StateHolder(NamedTuple):
    value: jax.Array


def update_state(state, increment):
    _UPDATES[type(state)] = _UPDATES.get(type(state), 0) + 1
    return StateHolder(state.value + increment)
