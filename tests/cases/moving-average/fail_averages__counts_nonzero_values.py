# Mutant: the count moves only for a nonzero value (a zero is taken for "no reading").
# says: average returned for state (-3, 2) and new_value 0
import jax.numpy as jnp

initial_state = (jnp.float32(0.0), jnp.int32(0))


def update_moving_average(state, new_value):
    total, count = state
    count = count + (new_value != 0).astype(count.dtype)
    total = total + new_value
    return (total, count), total / jnp.maximum(count, 1)
