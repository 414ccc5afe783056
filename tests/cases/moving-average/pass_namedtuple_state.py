from typing import NamedTuple

import jax.numpy as jnp


class Running(NamedTuple):
    total: jnp.ndarray
    count: jnp.ndarray


initial_state = Running(jnp.zeros((), jnp.float32), jnp.zeros((), jnp.int32))


def update_moving_average(state, new_value):
    total = state.total + new_value
    count = state.count + 1
    return Running(total, count), total / count
