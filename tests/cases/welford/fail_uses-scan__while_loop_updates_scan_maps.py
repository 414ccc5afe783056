"""The Welford updates in a lax.while_loop that stores every state, then a lax.scan with no carry
that only turns each stored (n, m2) into a variance."""

# says: carries no running mean and m2
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
    T = xs.shape[0]

    def body(c):
        i, state, ns, m2s = c
        state, _ = welford_step(state, xs[i])
        return i + 1, state, ns.at[i].set(state[0]), m2s.at[i].set(state[2])

    zero = jnp.zeros((), xs.dtype)
    init = (0, (zero, zero, zero), jnp.zeros_like(xs), jnp.zeros_like(xs))
    _, (n, mean, m2), ns, m2s = lax.while_loop(lambda c: c[0] < T, body, init)
    _, trace = lax.scan(lambda c, nm: (c, nm[1] / nm[0]), None, (ns, m2s))
    return mean, m2 / n, trace
