import jax.numpy as jnp
from jax import lax


def scaled(x, scale):
    def body(carry, _):
        return carry * scale, None

    out, _ = lax.scan(body, jnp.asarray(x), None, length=1)
    return out
