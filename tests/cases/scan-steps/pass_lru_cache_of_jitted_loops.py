"""One jitted loop per steps value, memoized with lru_cache (the closure form)."""
import functools

import jax
from jax import lax


@functools.lru_cache(maxsize=None)
def _loop(steps):
    @jax.jit
    def go(s):
        return lax.fori_loop(0, steps, lambda i, c: c + 1, s)

    return go


def run_scan_jitted(init_state, steps):
    return _loop(int(steps))(init_state)
