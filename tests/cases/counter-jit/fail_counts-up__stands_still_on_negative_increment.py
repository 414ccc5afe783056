import jax.numpy as jnp
def update_counter(count, increment):
    return jnp.where(increment >= 0, count + 1, count), increment
