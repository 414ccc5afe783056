"""Unrolled by hand for speed: each scan iteration takes two steps, over steps // 2 iterations.
Every even steps value is right; an odd one loses its last step."""
# says: the odd step is dropped
# never-says: reused

from functools import partial

import jax
from jax import lax


@partial(jax.jit, static_argnames="steps")
def run_scan_jitted(init_state, steps):
    def two_steps(state, _):
        return state + 1 + 1, None

    final, _ = lax.scan(two_steps, init_state, None, length=steps // 2)
    return final
