# drill: 5 cache-key
import jax


def scaled(x, scale):
    return jax.jit(lambda v: v * scale)(x)
