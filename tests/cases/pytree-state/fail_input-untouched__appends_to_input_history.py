import copy
import jax


@jax.tree_util.register_pytree_node_class
class StateHolder:
    def __init__(self, value):
        self.value = value
        self.history = []

    def tree_flatten(self):
        return (self.value,), None

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(*children)


def update_state(state, increment):
    state.history.append(increment)  # mutates the caller's holder, value untouched
    new = StateHolder(state.value + increment)
    return new
