"""Keeps the count n in float16 ("it is only a counter"): it stops counting at 2048."""
# says: 2048

import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    n = n + 1
    delta = x - mean
    mean = mean + delta / n
    m2 = m2 + delta * (x - mean)
    return (n, mean, m2), m2 / n


def online_var(xs):
    zero = jnp.zeros((), xs.dtype)
    (n, mean, m2), var_trace = lax.scan(welford_step, (jnp.zeros((), jnp.float16), zero, zero), xs)
    return mean, m2 / n, var_trace
