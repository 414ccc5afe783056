"""Welford written with the weights of the old mean and of the new value: n / (n + 1) and
1 / (n + 1), exact from a count of 0 (0 / 1 and 1 / 1)."""

import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    n1 = n + 1.0
    old_w = n / n1
    dev = x - mean
    mean1 = old_w * mean + x / n1
    m2_1 = m2 + old_w * dev * dev
    return (n1, mean1, m2_1), m2_1 / n1


def online_var(xs):
    init = tuple(jnp.zeros((), jnp.float32) for _ in range(3))
    final, trace = lax.scan(welford_step, init, xs)
    return final[1], final[2] / final[0], trace
