"""Welford with Python-scalar initial state, functools.partial(jax.jit), and a __main__ demo."""
import functools

import jax
import jax.numpy as jnp


def welford_step(state, x):
    """(n, mean, m2), x -> ((n, mean, m2), var)."""
    n, mean, m2 = state
    n_new = n + 1
    delta = x - mean
    mean_new = mean + delta / n_new
    m2_new = m2 + delta * (x - mean_new)
    return (n_new, mean_new, m2_new), m2_new / n_new


@functools.partial(jax.jit, static_argnames=())
def online_var(xs: jax.Array) -> tuple:
    (n, mean, m2), trace = jax.lax.scan(welford_step, (0, 0.0, 0.0), xs)
    return mean, m2 / n, trace


if __name__ == "__main__":
    print(online_var(jnp.arange(5.0)))
