import jax.numpy as jnp

# jnp.array(0.0) with no dtype is still weakly typed (~float32).
initial_state = (jnp.array(0.0), jnp.array(0))


def update_moving_average(state, new_value):
    current_sum, count = state
    new_sum = current_sum + new_value
    new_count = count + 1
    return (new_sum, new_count), new_sum / new_count
