# Mutant: the count lives in a global that only advances while scan traces the body.
import jax.numpy as jnp
from jax import lax

COUNT = 0   # a global counter instead of n in the state


def welford_step(state, x):
    global COUNT
    COUNT += 1
    n, mean, m2 = state
    delta = x - mean
    mean = mean + delta / COUNT
    m2 = m2 + delta * (x - mean)
    return (n + 1, mean, m2), m2 / COUNT


def online_var(xs):
    z = jnp.zeros((), xs.dtype)
    (n, mean, m2), trace = lax.scan(welford_step, (z, z, z), xs)
    return mean, m2 / n, trace
