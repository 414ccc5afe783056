"""The sum as an einsum over the batch axis (0 for an empty batch), the count from the static shape,
the mean guarded against a count of 0. The pair is built by a mask blend, [n, 0] + [0, 1] * sum, and
0 * NaN is NaN: a batch holding NaN turns the count into NaN, where the task has it grow by the
batch's size (a pass case until issue 53 gave every meter a batch with NaN)."""
# says: NaN

import jax
import jax.numpy as jnp


def new_meter():
    return jax.new_ref(jnp.array([0.0, 0.0], dtype=jnp.float32))


def record(meter, batch):
    add = jnp.array([batch.shape[0], 0.0], jnp.float32) + jnp.array([0.0, 1.0], jnp.float32) * jnp.einsum("i->", batch)
    meter[...] = meter[...] + add
    count, total = meter[0], meter[1]
    return jnp.where(count > 0, total / jnp.maximum(count, 1.0), 0.0)
