import jax.numpy as jnp

initial_state = (jnp.array(0.0, jnp.float32), jnp.array(0, jnp.int32))


def update_moving_average(state, new_value):
    current_sum, count = state
    new_sum = current_sum + new_value
    return (new_sum, count + 1), new_sum / jnp.maximum(count, 1)
