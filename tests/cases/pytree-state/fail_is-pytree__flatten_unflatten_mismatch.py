import jax


@jax.tree_util.register_pytree_node_class
class StateHolder:
    def __init__(self, value):
        self.value = value

    def tree_flatten(self):
        return ([self.value],), None   # children: one list holding value

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(*children)          # rebuilds with value = [leaf]


def update_state(state, increment):
    return StateHolder(state.value + increment)
