# m2 kept from going below 0 with jnp.maximum(..., 0.0): harmless, since m2 never is below 0.
import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    n = n + 1
    delta = x - mean
    mean = mean + delta / n
    m2 = jnp.maximum(m2 + delta * (x - mean), 0.0)
    return (n, mean, m2), m2 / n


def online_var(xs):
    zero = jnp.zeros((), jnp.float32)
    (_, mean, m2), trace = lax.scan(welford_step, (jnp.int32(0), zero, zero), xs)
    return mean, trace[-1], trace
