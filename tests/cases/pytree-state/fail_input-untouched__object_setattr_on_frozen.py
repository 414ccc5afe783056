import dataclasses
import jax


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class StateHolder:
    value: jax.Array


def update_state(state, increment):
    object.__setattr__(state, "value", state.value + increment)  # sneaks past frozen
    return StateHolder(state.value)
