import jax
import jax.numpy as jnp

# The sum must be strong; a weak int count stays weak after `+ 1`, so it is stable too.
initial_state = (jnp.float32(0.0), 0)


@jax.jit
def update_moving_average(state, new_value):
    total, n = state
    new_state = (total + new_value, n + 1)
    return new_state, jnp.divide(new_state[0], new_state[1])
