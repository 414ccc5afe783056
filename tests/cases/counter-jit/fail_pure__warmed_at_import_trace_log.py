"""Jitted at import and warmed there with int32 scalars: its call log grows only when it traces."""
# says: CALLS
import jax
import jax.numpy as jnp

CALLS = []


@jax.jit
def update_counter(count, increment):
    CALLS.append("traced")
    return count + 1, increment


update_counter(jnp.int32(4), jnp.int32(1))
CALLS.clear()
