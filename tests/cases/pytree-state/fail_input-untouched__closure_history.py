# update_state is built by a factory whose closure keeps every increment it was given.
from typing import NamedTuple

import jax


class StateHolder(NamedTuple):
    value: jax.Array


def _make_update():
    history = []

    def update_state(state, increment):
        history.append(increment)
        return StateHolder(state.value + increment)

    return update_state


update_state = _make_update()
