# says: expected 10, got 13
# never-says: tolerance
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames="steps")
def run_scan_jitted(init_state, steps):
    # integers take a "shortcut" that adds 2 per step: right for floats, wrong for int32
    inc = 2 if jnp.issubdtype(jnp.result_type(init_state), jnp.integer) else 1
    return lax.scan(lambda c, _: (c + inc, None), init_state, None, length=steps)[0]
