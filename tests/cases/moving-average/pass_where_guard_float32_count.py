# Correct: a float32 count, the division guarded by jnp.where (never needed, since count >= 1).
import jax.numpy as jnp

initial_state = (jnp.zeros((), jnp.float32), jnp.zeros((), jnp.float32))


def update_moving_average(state, new_value):
    s, n = state[0] + new_value, state[1] + 1.0
    return (s, n), jnp.where(n > 0, s / jnp.where(n > 0, n, 1.0), 0.0)
