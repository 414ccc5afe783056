"""The pair is a NamedTuple; the same kind comes back."""
from typing import NamedTuple

import jax.numpy as jnp


class Running(NamedTuple):
    total: jnp.ndarray
    count: jnp.ndarray


initial_state = Running(jnp.zeros((), jnp.float32), jnp.zeros((), jnp.int32))


def update_moving_average(state, new_value):
    total, count = state
    new = type(state)(total + new_value, count + 1)
    return new, new.total / new.count
