import jax


class StateHolder:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return f"StateHolder({self.value!r})"


jax.tree_util.register_pytree_node(
    StateHolder,
    lambda s: ((s.value,), None),
    lambda aux, children: StateHolder(*children),
)


def update_state(state: StateHolder, increment) -> StateHolder:
    """A new holder; the old one is left alone."""
    return StateHolder(state.value + increment)


if __name__ == "__main__":
    print(update_state(StateHolder(1.0), 2.0))
