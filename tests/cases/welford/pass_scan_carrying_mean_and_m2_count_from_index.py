"""The scan carries (mean, m2) only; the count comes from scanning over (index, value) pairs, n = i + 1,
as an integer turned float at the division: the same recurrence, carried by the scan."""

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
    def body(carry, ix):
        i, x = ix
        (_, mean, m2), var = welford_step((i.astype(xs.dtype), *carry), x)
        return (mean, m2), var

    zero = jnp.zeros((), xs.dtype)
    (mean, m2), trace = lax.scan(body, (zero, zero), (jnp.arange(xs.shape[0]), xs))
    return mean, m2 / xs.shape[0], trace
