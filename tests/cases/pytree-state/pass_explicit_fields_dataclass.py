from dataclasses import dataclass

import jax


@dataclass
class StateHolder:
    value: object


jax.tree_util.register_dataclass(StateHolder, data_fields=["value"], meta_fields=[])


def update_state(state, increment):
    new_value = state.value + increment
    return StateHolder(value=new_value)
