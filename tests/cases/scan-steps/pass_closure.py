import functools

import jax
from jax import lax


@functools.lru_cache(maxsize=None)
def _compiled(steps):
    def loop(state):
        return lax.scan(lambda c, _: (c + 1, None), state, length=steps)[0]
    return jax.jit(loop)


def run_scan_jitted(init_state, steps):
    """steps is captured by a closure, one compiled loop per value."""
    return _compiled(int(steps))(init_state)
