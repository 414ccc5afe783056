"""The Welford recurrence in a Python loop over the values; lax.scan only turns the stacked states
into the variance trace."""
# says: the recurrence is unrolled
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
    z = jnp.zeros((), xs.dtype)
    state, states = (z, z, z), []
    for i in range(xs.shape[0]):
        state, _ = welford_step(state, xs[i])
        states.append(jnp.stack(state))
    _, trace = lax.scan(lambda c, s: (c, s[2] / s[0]), None, jnp.stack(states))
    n, mean, m2 = state
    return mean, m2 / n, trace
