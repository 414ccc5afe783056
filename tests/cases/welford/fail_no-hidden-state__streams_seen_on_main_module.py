# says: __main__.welford_streams
# Wrong: every stream's length is recorded on the __main__ module.
import __main__

import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    n = n + 1
    delta = x - mean
    mean = mean + delta / n
    return (n, mean, m2 + delta * (x - mean)), (m2 + delta * (x - mean)) / n


def online_var(xs):
    seen = getattr(__main__, "welford_streams", ())
    __main__.welford_streams = (*seen, xs.shape[0])
    zero = jnp.zeros((), xs.dtype)
    (n, mean, m2), trace = lax.scan(welford_step, (zero, zero, zero), xs)
    return mean, m2 / n, trace
