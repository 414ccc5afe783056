import jax.numpy as jnp


def scaled(x, scale):
    return x * jnp.abs(scale)
