# Correct: a standard-library module imported lazily inside the function (it lands in sys.modules, as any import does).
import jax.numpy as jnp


def scaled(x, scale):
    import colorsys  # noqa: F401 - a lazy import, as large programs do

    return jnp.multiply(x, scale)
