import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)

# float64 accumulator: float64 + float32 value stays float64, so the loop is stable.
initial_state = (np.float64(0.0), np.int64(0))


def update_moving_average(state, new_value):
    acc, k = state
    acc = acc + jnp.asarray(new_value, dtype=jnp.float64)
    k = k + 1
    return (acc, k), acc / k
