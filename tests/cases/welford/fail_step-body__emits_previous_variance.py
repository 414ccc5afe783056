# Mutant: the step emits the variance from BEFORE x is taken in (var_trace shifted by one).
import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    var_before = jnp.where(n > 0, m2 / jnp.maximum(n, 1), 0.0)   # emitted before taking x in
    n = n + 1
    delta = x - mean
    mean = mean + delta / n
    m2 = m2 + delta * (x - mean)
    return (n, mean, m2), var_before


def online_var(xs):
    z = jnp.zeros((), xs.dtype)
    (n, mean, m2), trace = lax.scan(welford_step, (z, z, z), xs)
    return mean, m2 / n, trace
