import jax.numpy as jnp

# int32 sum + float32 value -> float32: the state's dtype changes after one step.
initial_state = (jnp.array(0, jnp.int32), jnp.array(0, jnp.int32))


def update_moving_average(state, new_value):
    current_sum, count = state
    new_sum = current_sum + new_value
    new_count = count + 1
    return (new_sum, new_count), new_sum / new_count
