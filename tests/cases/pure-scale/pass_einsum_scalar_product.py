"""jnp.einsum with an empty subscript for the scale: the same elementwise product."""
import jax.numpy as jnp


def scaled(x, scale):
    return jnp.einsum("...,->...", x, scale)
