"""Adds in bfloat16 and casts back: it has float32's range, so nothing overflows, but only 8
significant bits, so 1000.5 + 0.25 comes back as 1000."""
# says: bfloat16

import jax
import jax.numpy as jnp
from typing import NamedTuple


class StateHolder(NamedTuple):
    value: jax.Array


def update_state(state, increment):
    total = state.value.astype(jnp.bfloat16) + jnp.asarray(increment).astype(jnp.bfloat16)
    return StateHolder(total.astype(state.value.dtype))
