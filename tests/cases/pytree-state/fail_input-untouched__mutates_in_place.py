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
    state.value = state.value + increment
    return state
