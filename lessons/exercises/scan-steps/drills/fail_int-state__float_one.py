# drill: 9 dtype-drift
from functools import partial

import jax
from jax import lax


@partial(jax.jit, static_argnames="steps")
def run_scan_jitted(init_state, steps):
    step = lambda c, _: (c + 1.0, None)  # noqa: E731
    final, _ = lax.scan(step, init_state, None, length=steps)
    return final
