from typing import NamedTuple

import jax
import jax.numpy as jnp


class Stats(NamedTuple):
    n: jax.Array
    mean: jax.Array
    m2: jax.Array


def welford_step(state, x):
    n, mean, m2 = state
    n = n + 1
    new_mean = mean + (x - mean) / n
    m2 = m2 + (x - mean) * (x - new_mean)
    return Stats(n, new_mean, m2), m2 / n


def online_var(xs):
    init = Stats(jnp.int32(0), jnp.float32(0.0), jnp.float32(0.0))
    final, trace = jax.lax.scan(welford_step, init, xs)
    return final.mean, trace[-1], trace
