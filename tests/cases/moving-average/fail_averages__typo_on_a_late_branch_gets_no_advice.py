# says: NameError: name 'totl' is not defined
# never-says: Divide the *new* sum
import jax.numpy as jnp

initial_state = (jnp.float32(0.0), jnp.int32(0))


def update_moving_average(state, new_value):
    total, count = state
    total = total + new_value
    count = count + 1
    if count > 3:  # a branch only later steps reach, with a typo in it
        return (total, count), totl / count
    return (total, count), total / count
