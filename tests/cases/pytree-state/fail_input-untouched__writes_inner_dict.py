import jax


@jax.tree_util.register_pytree_node_class
class StateHolder:
    def __init__(self, value):
        self.data = {"value": value}

    @property
    def value(self):
        return self.data["value"]

    def tree_flatten(self):
        return (self.data["value"],), None

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(*children)


def update_state(state, increment):
    state.data["value"] = state.value + increment   # mutates the caller's dict
    return StateHolder(state.data["value"])
