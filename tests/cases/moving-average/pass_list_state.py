import jax.numpy as jnp

# A list works as the pair too, as long as a list comes back.
initial_state = [jnp.zeros((), jnp.float32), jnp.zeros((), jnp.int32)]


def update_moving_average(state, new_value):
    s, n = state
    return [s + new_value, n + 1], (s + new_value) / (n + 1)
