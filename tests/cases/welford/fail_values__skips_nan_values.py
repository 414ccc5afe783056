"""A 'robust' Welford: a NaN value leaves the state as it was. Every stream without NaN gives the
same numbers; with one, the statistics are those of a stream the caller did not pass."""
# says: skips NaN

import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    n_new = n + 1
    delta = x - mean
    mean_new = mean + delta / n_new
    m2_new = m2 + delta * (x - mean_new)
    bad = jnp.isnan(x)
    n_new, mean_new, m2_new = (jnp.where(bad, a, b) for a, b in ((n, n_new), (mean, mean_new), (m2, m2_new)))
    return (n_new, mean_new, m2_new), m2_new / n_new


def online_var(xs):
    (n, mean, m2), trace = lax.scan(welford_step, (0.0, 0.0, 0.0), xs)
    return mean, m2 / n, trace
