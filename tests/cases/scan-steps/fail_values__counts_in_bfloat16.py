"""Float states counted in bfloat16 "to keep the carry small", cast back at the end: exact for short
loops, stuck at 256 once x + 1 rounds back to x."""

# says: in bfloat16
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnums=1)
def run_scan_jitted(init_state, steps):
    state = jnp.asarray(init_state)
    if jnp.issubdtype(state.dtype, jnp.floating):
        small, _ = lax.scan(lambda c, _: (c + 1, None), state.astype(jnp.bfloat16), None, length=steps)
        return small.astype(state.dtype)
    return lax.scan(lambda c, _: (c + 1, None), state, None, length=steps)[0]
