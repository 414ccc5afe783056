# Correct: the initial state is Python ints (0, 0, 0); lax.scan promotes weak-typed carries.
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
    (n, mean, m2), trace = lax.scan(welford_step, (0, 0, 0), xs)   # Python ints, promoted by scan
    return mean, m2 / n, trace
