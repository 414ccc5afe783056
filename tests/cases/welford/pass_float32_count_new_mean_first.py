"""A float32 count (exact up to 2**24 values, far beyond any stream here) and m2 updated with the
(x - new_mean) form written as a difference of squares-free product."""
import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    n = n + jnp.float32(1)
    new_mean = mean + (x - mean) / n
    m2 = m2 + (x - new_mean) * (x - mean)
    return (n, new_mean, m2), m2 / n


def online_var(xs):
    init = (jnp.float32(0), jnp.zeros((), xs.dtype), jnp.zeros((), xs.dtype))
    (n, mean, m2), trace = lax.scan(welford_step, init, xs)
    return mean, m2 / n, trace
