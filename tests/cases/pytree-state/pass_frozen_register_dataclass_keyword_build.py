"""A frozen dataclass registered with register_dataclass; the new value keeps the state's dtype
when the increment is a Python number (weak typing), and adds in the promoted dtype otherwise."""
from dataclasses import dataclass

import jax


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class StateHolder:
    value: jax.Array


def update_state(state, increment):
    return StateHolder(value=state.value + increment)
