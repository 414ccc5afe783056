"""A cache of compiled functions, one per dtype: memoizing is not state the answer depends on."""

import functools
import io

import jax

BANNER = io.StringIO("scaled: x * scale\n")  # read once at import, never written by scaled


@functools.lru_cache(maxsize=None)
def _program(dtype_name):
    return jax.jit(lambda v, s: v * s)


def scaled(x, scale):
    return _program(str(x.dtype))(x, scale)
