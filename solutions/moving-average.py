"""Reference solution: moving-average."""

import jax.numpy as jnp

# Strong dtypes from the start: a step returns (float32, int32), so does the start.
initial_state = (jnp.array(0.0, dtype=jnp.float32), jnp.array(0, dtype=jnp.int32))


def update_moving_average(state, new_value):
    """Add new_value to the (sum, count) state; return the new state and the average."""
    current_sum, count = state
    new_sum = current_sum + new_value
    new_count = count + 1
    return (new_sum, new_count), new_sum / new_count
