import jax.numpy as jnp


def new_meter():
    """A fresh meter: a float32 jax.Ref [values seen, their sum] = 0."""
    # TODO: a plain array cannot be changed in place; wrap it in a Ref.
    return jnp.zeros(2, jnp.float32)


def record(meter, batch):
    """Add batch to the meter in place; return the mean of all so far."""
    # TODO: this only rebinds a local name. Write into the meter instead:
    # meter[...] = ...
    meter = meter + jnp.stack([jnp.float32(batch.size), jnp.sum(batch)])
    return meter[1] / meter[0]
