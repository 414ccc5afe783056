import jax.numpy as jnp

initial_state = (jnp.float32(0.0), jnp.int32(0))


def update_moving_average(state, new_value):
    s, n = state
    s = s + new_value
    n = n + 1.0
    return (s, n), s / n
