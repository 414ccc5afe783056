"""Keeps the last holder on jax.tree_util's module."""
# says: jax.tree_util._last_holder
from typing import NamedTuple, Any

import jax


class StateHolder(NamedTuple):
    value: Any


def update_state(state, increment):
    new = StateHolder(state.value + increment)
    jax.tree_util._last_holder = new
    return new
