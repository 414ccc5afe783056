"""online_var carries the state packed in one float32 array [n, mean, m2], unpacked into the tuple
welford_step takes at each step: still the recurrence in lax.scan's carry."""

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
    def packed(s, x):
        (n, mean, m2), var = welford_step((s[0], s[1], s[2]), x)
        return jnp.stack([n, mean, m2]), var

    s, trace = lax.scan(packed, jnp.zeros(3, xs.dtype), xs)
    return s[1], s[2] / s[0], trace
