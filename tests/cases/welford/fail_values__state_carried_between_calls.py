# "Online" taken to mean the stream resumes: the final state of one call is the start of the next.
import jax.numpy as jnp
from jax import lax

_state = None


def welford_step(state, x):
    n, mean, m2 = state
    n = n + 1
    delta = x - mean
    mean = mean + delta / n
    m2 = m2 + delta * (x - mean)
    return (n, mean, m2), m2 / n


def online_var(xs):
    global _state
    if _state is None:
        z = jnp.zeros((), xs.dtype)
        _state = (z, z, z)
    _state, trace = lax.scan(welford_step, _state, xs)
    n, mean, m2 = _state
    return mean, m2 / n, trace
