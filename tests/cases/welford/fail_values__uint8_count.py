# n kept as uint8: right for streams under 256 values, then it wraps to 0.
# says: uint8
# never-says: integer type
import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    n = n + jnp.uint8(1)
    delta = x - mean
    mean = mean + delta / n
    m2 = m2 + delta * (x - mean)
    return (n, mean, m2), m2 / n


def online_var(xs):
    zero = jnp.zeros((), xs.dtype)
    (n, mean, m2), trace = lax.scan(welford_step, (jnp.uint8(0), zero, zero), xs)
    return mean, m2 / n, trace
