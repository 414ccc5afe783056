"""M2 grows by |delta * (x - new mean)|: the term is delta**2 * (n - 1) / n, never negative, so the abs changes nothing."""
import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    n = n + 1
    delta = x - mean
    mean = mean + delta / n
    m2 = m2 + jnp.abs(delta * (x - mean))
    return (n, mean, m2), m2 / n


def online_var(xs):
    (n, mean, m2), trace = lax.scan(welford_step, (jnp.int32(0), jnp.float32(0), jnp.float32(0)), xs)
    return mean, m2 / n, trace
