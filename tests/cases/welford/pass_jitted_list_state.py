import jax
import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    count, mu, sq = state
    count = count + 1.0
    d_old = x - mu
    mu = mu + d_old / count
    d_new = x - mu
    sq = sq + d_old * d_new
    var = sq / count
    return [count, mu, sq], var


@jax.jit
def online_var(xs):
    z = xs[0] * 0
    (count, mu, sq), var_trace = lax.scan(welford_step, [z, z, z], xs)
    return mu, sq / count, var_trace
