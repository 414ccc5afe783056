# Adds the float 1.0: an int32 state comes back as float32.
from functools import partial

import jax
from jax import lax


@partial(jax.jit, static_argnames="steps")
def run_scan_jitted(init_state, steps):
    final, _ = lax.scan(lambda c, _: (c + 1.0, None), init_state, None, length=steps)
    return final
