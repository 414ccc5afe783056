"""A class registered with register_pytree_with_keys (keyed flattening), frozen by __slots__;
update builds a new one with jnp.add."""
import jax
import jax.numpy as jnp


class StateHolder:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


jax.tree_util.register_pytree_with_keys(
    StateHolder,
    lambda s: (((jax.tree_util.GetAttrKey("value"), s.value),), None),
    lambda _, children: StateHolder(*children),
)


def update_state(state, increment):
    return StateHolder(jnp.add(state.value, increment))
