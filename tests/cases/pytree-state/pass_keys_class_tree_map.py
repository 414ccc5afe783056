import jax
from jax.tree_util import GetAttrKey, register_pytree_with_keys_class


@register_pytree_with_keys_class
class StateHolder:
    def __init__(self, value):
        self.value = value

    def tree_flatten_with_keys(self):
        return ((GetAttrKey("value"), self.value),), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        obj = object.__new__(cls)  # skip __init__, as JAX recommends
        obj.value = children[0]
        return obj


def update_state(state, increment):
    return jax.tree.map(lambda v: v + increment, state)
