# m2 grows by the NEW deviation squared (both factors from the new mean).
import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    n = n + 1
    mean = mean + (x - mean) / n
    m2 = m2 + (x - mean) ** 2
    return (n, mean, m2), m2 / n


def online_var(xs):
    z = jnp.zeros((), xs.dtype)
    (n, mean, m2), trace = lax.scan(welford_step, (z, z, z), xs)
    return mean, m2 / n, trace
