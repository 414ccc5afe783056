# drill: 12 in-place-updates
import dataclasses
import jax


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class StateHolder:
    value: jax.Array


def update_state(state, increment):
    object.__setattr__(state, "value", state.value + increment)
    return StateHolder(state.value)
