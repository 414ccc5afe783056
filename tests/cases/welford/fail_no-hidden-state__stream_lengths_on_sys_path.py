# The length of every stream put on sys.path as a marker: a process-wide list, mutated in place.
# says: sys.path
import sys

import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    n = n + 1
    delta = x - mean
    mean = mean + delta / n
    return (n, mean, m2 + delta * (x - mean)), (m2 + delta * (x - mean)) / n


def online_var(xs):
    sys.path.insert(0, f"<stream of {xs.shape[0]}>")
    zero = jnp.zeros((), xs.dtype)
    (n, mean, m2), trace = lax.scan(welford_step, (zero, zero, zero), xs)
    return mean, m2 / n, trace
