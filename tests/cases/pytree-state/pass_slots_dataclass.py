import dataclasses
import jax


@jax.tree_util.register_dataclass
@dataclasses.dataclass(slots=True)
class StateHolder:
    value: jax.Array


def update_state(state, increment):
    return StateHolder(state.value + increment)
