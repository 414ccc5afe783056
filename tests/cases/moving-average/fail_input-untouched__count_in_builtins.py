# says: builtins.moving_average_calls
# Wrong: the number of updates is kept as a name added to builtins, visible from every module.
import builtins

import jax.numpy as jnp

initial_state = (jnp.float32(0.0), jnp.int32(0))


def update_moving_average(state, new_value):
    builtins.moving_average_calls = getattr(builtins, "moving_average_calls", 0) + 1
    total, count = state
    total, count = total + new_value, count + 1
    return (total, count), total / count
