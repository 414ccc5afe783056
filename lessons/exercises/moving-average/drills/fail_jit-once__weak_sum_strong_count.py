# drill: 2 dtype-drift
import jax.numpy as jnp
initial_state = (0.0, jnp.int32(0))


def update_moving_average(state, new_value):
    s, n = state
    return (s + new_value, n + 1), (s + new_value) / (n + 1)
