# Mutant: the running sum is kept in float16 "to save memory": it overflows past 65504.
# says: sum in the state after step 6 (value 70000)
import jax.numpy as jnp

initial_state = (jnp.zeros((), jnp.float16), jnp.zeros((), jnp.int32))


def update_moving_average(state, new_value):
    total, count = state
    total = total + new_value.astype(total.dtype)
    count = count + 1
    return (total, count), total.astype(jnp.float32) / count
