# The new value by tree.map over the holder: any leaf structure under `value` is added to.
from dataclasses import dataclass

import jax


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class StateHolder:
    value: jax.Array


def update_state(state, increment):
    return jax.tree.map(lambda v: v + increment, state)
