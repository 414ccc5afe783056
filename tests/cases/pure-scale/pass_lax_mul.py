from jax import lax
import jax.numpy as jnp


def scaled(x, scale):
    x = jnp.asarray(x)
    return lax.mul(x, lax.convert_element_type(scale, x.dtype))
