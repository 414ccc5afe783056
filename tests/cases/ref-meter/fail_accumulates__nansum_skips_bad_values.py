"""A meter that sums with jnp.nansum 'to be robust': the same numbers for every finite batch, but
a NaN recorded leaves the sum finite, so the meter hides the bad batch the task says it shows."""
# says: jnp.nansum

import jax
import jax.numpy as jnp


def new_meter():
    return jax.new_ref(jnp.zeros((2,), dtype=jnp.float32))


def record(meter, batch):
    meter[...] = meter[...] + jnp.array([batch.shape[0], jnp.nansum(batch)], jnp.float32)
    return meter[1] / meter[0]
