"""A meter that keeps only finite values: count and sum over a mask of jnp.isfinite. For every
ordinary batch that is everything, and an inf or NaN disappears from both."""

import jax
import jax.numpy as jnp


def new_meter():
    return jax.new_ref(jnp.array([0.0, 0.0], jnp.float32))


def record(meter, batch):
    ok = jnp.isfinite(batch)
    n = jnp.sum(ok).astype(jnp.float32)
    s = jnp.sum(jnp.where(ok, batch, 0.0))
    meter[0] += n
    meter[1] += s
    count, total = meter[...]
    return total / count
