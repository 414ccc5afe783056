# Mutant: scan runs backwards over xs (reverse=True): final mean and variance right, var_trace wrong.
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
    z = jnp.zeros((), xs.dtype)
    (n, mean, m2), trace = lax.scan(welford_step, (z, z, z), xs, reverse=True)
    return mean, m2 / n, trace
