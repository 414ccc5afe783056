# m2 floored at 1e-6 "for safety": a constant stream's m2 is exactly 0, and so must its variance be.
# says: floor
import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    n = n + 1
    delta = x - mean
    mean = mean + delta / n
    m2 = jnp.maximum(m2 + delta * (x - mean), 1e-6)
    return (n, mean, m2), m2 / n


def online_var(xs):
    (n, mean, m2), trace = lax.scan(welford_step, (0.0, 0.0, 0.0), xs)
    return mean, m2 / n, trace
