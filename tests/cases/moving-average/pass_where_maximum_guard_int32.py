"""The average divided only where the count is positive (a guard that never fires after a step),
the count an int32 made with jnp.int32."""
import jax.numpy as jnp

initial_state = (jnp.zeros((), jnp.float32), jnp.int32(0))


def update_moving_average(state, new_value):
    s, n = state
    s, n = s + jnp.float32(new_value), n + 1
    avg = jnp.where(n > 0, s / jnp.maximum(n, 1), 0.0)
    return (s, n), avg
