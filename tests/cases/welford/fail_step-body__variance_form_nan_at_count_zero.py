"""Welford in 'variance form': the old variance m2 / n is rescaled to the new count. Exact for every
n >= 1, and 0 / 0 at n = 0; online_var dodges it by seeding the scan with the first value."""
# says: welford_step((0, 0, 0), 5)

import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    n1 = n + 1
    var_old = m2 / n
    new_mean = mean + (x - mean) / n1
    new_var = (n * var_old + (x - mean) * (x - new_mean)) / n1
    return (n1, new_mean, new_var * n1), new_var


def online_var(xs):
    first = (jnp.float32(1.0), xs[0].astype(jnp.float32), jnp.float32(0.0))
    (n, mean, m2), trace = lax.scan(welford_step, first, xs[1:])
    return mean, m2 / n, jnp.concatenate([jnp.zeros(1, trace.dtype), trace])
