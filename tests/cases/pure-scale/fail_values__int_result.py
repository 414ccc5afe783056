import jax.numpy as jnp


def scaled(x, scale):
    return (x * scale).astype(jnp.int32)
