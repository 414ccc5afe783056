import jax.numpy as jnp


def update_counter(count, increment):
    step = jnp.asarray(1, dtype=jnp.result_type(count))
    return [count + step, increment]
