import jax.numpy as jnp

initial_state = (jnp.array(0.0, jnp.float32), jnp.array(0, jnp.int32))


def update_moving_average(state, new_value):
    current_sum, count = state
    new_sum = current_sum + new_value
    new_count = count + 1
    # A list where a tuple came in: a jitted loop would see a new PyTree structure.
    return [new_sum, new_count], new_sum / new_count
