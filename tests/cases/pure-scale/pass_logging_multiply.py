import jax.numpy as jnp
import logging

log = logging.getLogger(__name__)


def scaled(x, scale):
    log.debug("scaling")
    x = jnp.asarray(x)
    return jnp.multiply(x, jnp.asarray(scale, dtype=x.dtype))
