import jax.numpy as jnp


def update_counter(count, increment):
    # Changes the state's dtype on every step: int32 in, float32 out -> retraces.
    return count + jnp.float32(1.0), increment
