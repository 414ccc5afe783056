# With x64 on: n as int64, the mean moved by (x - mean) / n written as a weighted blend of old and new.
import jax

jax.config.update("jax_enable_x64", True)  # as JAX_ENABLE_X64=1 in the shell: the checks keep it
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402


def welford_step(state, x):
    n, mean, m2 = state
    n1 = n + 1
    w = 1.0 / n1
    new_mean = (1.0 - w) * mean + w * x
    m2 = m2 + (x - mean) * (x - new_mean)
    return (n1, new_mean, m2), m2 / n1


def online_var(xs):
    zero = jnp.zeros((), xs.dtype)
    (n, mean, m2), trace = lax.scan(welford_step, (jnp.int64(0), zero, zero), xs)
    return mean, m2 / n, trace
