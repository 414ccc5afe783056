import jax
import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    n = n + 1
    nf = n.astype(x.dtype)
    delta = x - mean
    mean = mean + delta / nf
    m2 = m2 + delta * (x - mean)
    var = jnp.where(n > 0, m2 / jnp.maximum(nf, 1), 0.0)
    return (n, mean, m2), var


def online_var(xs):
    xs = jnp.asarray(xs)
    init = (jnp.array(0, jnp.int32), jnp.zeros((), xs.dtype), jnp.zeros((), xs.dtype))
    (n, mean, m2), var_trace = lax.scan(welford_step, init, xs)
    var = m2 / n.astype(xs.dtype)
    return mean, var, var_trace
