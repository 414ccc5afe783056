import jax.numpy as jnp

initial_state = [jnp.float32(0.0), jnp.int32(0)]


def update_moving_average(state, new_value):
    state[0] = state[0] + new_value   # changes the caller's list in place
    state[1] = state[1] + 1
    return state, state[0] / state[1]
