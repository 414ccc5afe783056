import jax
from jax import lax

_impl = jax.jit(lambda x, s: lax.mul(x, lax.convert_element_type(s, x.dtype)))


def scaled(x, scale):
    return _impl(x, scale)
