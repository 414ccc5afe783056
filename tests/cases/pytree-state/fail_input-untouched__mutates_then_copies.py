import dataclasses

import jax


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class StateHolder:
    value: jax.Array


def update_state(state, increment):
    state.value += increment  # rebinds the caller's attribute
    return StateHolder(state.value)
