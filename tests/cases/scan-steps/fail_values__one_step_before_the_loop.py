# Takes the first step by hand and loops steps - 1 times: right for steps >= 1 only.
# says: the loop body ran 1 time instead of 0
from functools import partial

import jax
from jax import lax


@partial(jax.jit, static_argnames="steps")
def run_scan_jitted(init_state, steps):
    first = init_state + 1
    final, _ = lax.scan(lambda c, _: (c + 1, None), first, None, length=max(steps - 1, 0))
    return final
