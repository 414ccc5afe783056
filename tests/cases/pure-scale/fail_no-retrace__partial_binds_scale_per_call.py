"""scale bound into a functools.partial, then jitted, inside the function: correct numbers, and a
new partial (a new function to jax.jit) on every call, so every scale compiles again."""
# says: functools.partial

from functools import partial

import jax


def _times(x, scale):
    return x * scale


def scaled(x, scale):
    return jax.jit(partial(_times, scale=scale))(x)
