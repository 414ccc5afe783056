import jax
import jax.numpy as jnp

SCALE = 2.0  # still defined, but no longer used by scaled


@jax.jit
def scaled(x, scale):
    return jnp.multiply(x, scale)
