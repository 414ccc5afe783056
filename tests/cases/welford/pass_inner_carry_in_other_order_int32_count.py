"""State kept as (mean, m2, n) in another order inside, with an int32 count; the step is a
closure the scan calls."""
import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    n1 = n + 1
    mean1 = mean + (x - mean) / n1
    m2_1 = m2 + (x - mean) * (x - mean1)
    return (n1, mean1, m2_1), m2_1 / n1


def online_var(xs):
    def inner(carry, x):
        mean, m2, n = carry
        (n, mean, m2), var = welford_step((n, mean, m2), x)
        return (mean, m2, n), var

    zero = jnp.zeros((), xs.dtype)
    (mean, m2, n), trace = lax.scan(inner, (zero, zero, jnp.int32(0)), xs)
    return mean, m2 / n, trace
