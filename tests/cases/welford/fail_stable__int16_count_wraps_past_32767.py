"""The count as int16 inside the scan: it wraps after 32767 values."""
# says: int16 count wraps at 32768
import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    n = n + jnp.int16(1)
    delta = x - mean
    mean = mean + delta / n
    m2 = m2 + delta * (x - mean)
    return (n, mean, m2), m2 / n


def online_var(xs):
    zero = jnp.zeros((), xs.dtype)
    (n, mean, m2), trace = lax.scan(welford_step, (jnp.int16(0), zero, zero), xs)
    return mean, m2 / n, trace
