import jax


def scaled(x, scale):
    # the scale baked into a new compiled function on every call
    return jax.jit(lambda v: v * scale)(x)
