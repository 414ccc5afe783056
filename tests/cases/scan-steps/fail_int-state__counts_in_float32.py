"""Counts in float32 and casts back to the state's dtype: loses integers past 2**24."""
# says: 2**24

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames="steps")
def run_scan_jitted(init_state, steps):
    final, _ = lax.scan(lambda c, _: (c + 1.0, None), init_state.astype(jnp.float32), xs=None, length=steps)
    return final.astype(init_state.dtype)
