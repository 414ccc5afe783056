# says: LAST_MEAN.get()
# Wrong: the last mean is also kept in a ContextVar "for the progress bar".
import contextvars

import jax
import jax.numpy as jnp

LAST_MEAN = contextvars.ContextVar("last_mean", default=None)


def new_meter():
    return jax.new_ref(jnp.zeros(2, jnp.float32))


def record(meter, batch):
    meter[...] += jnp.stack([jnp.float32(batch.size), jnp.sum(batch)])
    count, total = meter[...]
    LAST_MEAN.set(total / count)
    return total / count
