"""The average itself kept in state in bfloat16 (updated incrementally), with an int32 count:
8 bits of mantissa drift far from the float32 answer."""
import jax.numpy as jnp

initial_state = (jnp.array(0.0, dtype=jnp.float32), jnp.array(0, dtype=jnp.int32))


def update_moving_average(state, new_value):
    total, count = state
    count = count + 1
    total = (total.astype(jnp.bfloat16) + jnp.asarray(new_value, jnp.bfloat16)).astype(jnp.float32)
    return (total, count), total / count
