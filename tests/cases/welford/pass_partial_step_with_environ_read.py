# Correct: scan over a partial of the step; a dtype override is read (never written) from the environment.
import functools
import os

import jax.numpy as jnp
from jax import lax

_COUNT_DTYPE = os.environ.get("WELFORD_COUNT_DTYPE")


def welford_step(state, x, one=1.0):
    n, mean, m2 = state
    n = n + one
    delta = x - mean
    mean = mean + delta / n
    m2 = m2 + delta * (x - mean)
    return (n, mean, m2), m2 / n


def online_var(xs):
    zero = jnp.zeros((), _COUNT_DTYPE or xs.dtype)
    (n, mean, m2), trace = lax.scan(functools.partial(welford_step, one=1.0), (zero, zero + 0.0, zero + 0.0), xs)
    return mean, m2 / n, trace
