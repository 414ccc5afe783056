"""The count kept in int16 to save memory: it wraps to -32768 after 32767 values."""
# says: int16 at 32768
import jax.numpy as jnp

initial_state = (jnp.array(0.0, dtype=jnp.float32), jnp.array(0, dtype=jnp.int16))


def update_moving_average(state, new_value):
    total, count = state
    count = count + jnp.int16(1)
    total = total + new_value
    return (total, count), total / count
