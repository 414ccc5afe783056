# Accumulates in float16 "to save memory": the mean and m2 lose their digits.
import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    x = x.astype(jnp.float16)
    n = n + 1
    delta = x - mean
    mean = mean + delta / n
    m2 = m2 + delta * (x - mean)
    return (n, mean, m2), m2 / n


def online_var(xs):
    z = jnp.zeros((), jnp.float16)
    (n, mean, m2), trace = lax.scan(welford_step, (z, z, z), xs)
    return mean.astype(xs.dtype), (m2 / n).astype(xs.dtype), trace.astype(xs.dtype)
