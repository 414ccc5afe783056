"""lax.fori_loop with a static length (lowered to a scan) writing the trace into a buffer with
.at[i].set; the state read back from the loop's carry."""
import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    n = n + 1
    d = x - mean
    mean = mean + d / n
    m2 = m2 + d * (x - mean)
    return (n, mean, m2), m2 / n


def online_var(xs):
    def body(i, carry):
        state, trace = carry
        state, var = welford_step(state, xs[i])
        return state, trace.at[i].set(var)

    z = jnp.zeros((), xs.dtype)
    (n, mean, m2), trace = lax.fori_loop(0, xs.shape[0], body, ((z, z, z), jnp.zeros_like(xs)))
    return mean, m2 / n, trace
