# The count kept as an int32 array beside float mean and m2; the division promotes it.
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
    init = (jnp.int32(0), jnp.zeros((), xs.dtype), jnp.zeros((), xs.dtype))
    (n, mean, m2), trace = lax.scan(welford_step, init, xs)
    return mean, m2 / n, trace.astype(xs.dtype)
