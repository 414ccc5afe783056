# Mutant: var_trace repeats the final variance instead of the running one.
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
    (n, mean, m2), trace = lax.scan(welford_step, (z, z, z), xs)
    return mean, m2 / n, jnp.full_like(xs, m2 / n)   # the final variance repeated
