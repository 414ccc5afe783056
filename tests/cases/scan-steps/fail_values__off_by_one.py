from functools import partial

import jax
from jax import lax


@partial(jax.jit, static_argnames="steps")
def run_scan_jitted(init_state, steps):
    return lax.fori_loop(1, steps, lambda i, c: c + 1, init_state)
