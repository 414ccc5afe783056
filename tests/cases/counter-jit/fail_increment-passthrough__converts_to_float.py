import jax.numpy as jnp


def update_counter(count, increment):
    return count + 1, jnp.float32(increment)
