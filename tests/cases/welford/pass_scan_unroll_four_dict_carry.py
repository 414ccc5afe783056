"""A scan with unroll=4 whose carry is a dict, converted to and from welford_step's tuple."""
import jax.numpy as jnp
from jax import lax


def welford_step(state, x):
    n, mean, m2 = state
    n = n + 1
    delta = x - mean
    mean = mean + delta / n
    return (n, mean, m2 + delta * (x - mean)), (m2 + delta * (x - mean)) / n


def online_var(xs):
    def body(c, x):
        (n, mean, m2), var = welford_step((c["n"], c["mean"], c["m2"]), x)
        return {"n": n, "mean": mean, "m2": m2}, var

    z = jnp.zeros((), xs.dtype)
    c, trace = lax.scan(body, {"n": z, "mean": z, "m2": z}, xs, unroll=4)
    return c["mean"], c["m2"] / c["n"], trace
