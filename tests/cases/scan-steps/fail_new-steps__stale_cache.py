import jax
from jax import lax

_cache = {}


def run_scan_jitted(init_state, steps):
    # Bug: the first compiled loop is reused whatever steps is now.
    if "loop" not in _cache:
        _cache["loop"] = jax.jit(lambda s: lax.scan(lambda c, _: (c + 1, None), s, length=steps)[0])
    return _cache["loop"](init_state)
