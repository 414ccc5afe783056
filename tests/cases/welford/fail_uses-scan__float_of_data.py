# Mutant: float(xs[0]) needs a concrete value, so online_var cannot be traced (jit, vmap).
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
    shift = float(xs[0])          # concrete Python number: breaks under jit and vmap
    z = jnp.zeros((), xs.dtype)
    (n, mean, m2), trace = lax.scan(welford_step, (z, z, z), xs - shift)
    return mean + shift, m2 / n, trace
