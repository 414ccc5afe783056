import jax
jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp


def update_counter(count, increment=None):
    new_count = jnp.add(count, jnp.asarray(1, dtype=jnp.asarray(count).dtype))
    return new_count, increment
