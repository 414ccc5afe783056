# drill: 10 aux-data-leaf
import dataclasses

import jax


@dataclasses.dataclass(frozen=True)
class StateHolder:
    value: object

jax.tree_util.register_dataclass(StateHolder, [], ["value"])


def update_state(state, increment):
    return StateHolder(state.value + increment)
