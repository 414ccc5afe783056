import copy

import jax


@jax.tree_util.register_pytree_node_class
class StateHolder:
    def __init__(self, value):
        self.value = value

    def tree_flatten(self):
        return (self.value,), None

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(*children)


def update_state(state, increment):
    new = copy.copy(state)  # a new object; the caller's stays as it was
    new.value = state.value + increment
    return new
