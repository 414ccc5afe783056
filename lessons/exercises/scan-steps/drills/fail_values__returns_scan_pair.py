# drill: 10 carry-vs-ys
from functools import partial

import jax
from jax import lax


@partial(jax.jit, static_argnames="steps")
def run_scan_jitted(init_state, steps):
    step = lambda c, _: (c + 1, c + 1)  # noqa: E731
    return lax.scan(step, init_state, None, length=steps)
