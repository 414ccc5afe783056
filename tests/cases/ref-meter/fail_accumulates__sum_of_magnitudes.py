"""Sums |value| ("losses are never negative"): right until a batch holds a negative value."""

# says: negatives
import jax
import jax.numpy as jnp


def new_meter():
    return jax.new_ref(jnp.zeros(2, jnp.float32))


def record(meter, batch):
    meter[...] += jnp.array([batch.shape[0], jnp.abs(batch).sum()], jnp.float32)
    count, total = meter[...]
    return total / count
