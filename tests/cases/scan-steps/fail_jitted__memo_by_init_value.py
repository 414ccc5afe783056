# Caches a jitted loop per (steps, init) pair, keyed on the float value of init: a new compile for every new init.
# says: raised
import jax
from jax import lax

_loops = {}


def run_scan_jitted(init_state, steps):
    key = (steps, float(init_state))
    if key not in _loops:
        _loops[key] = jax.jit(lambda s: lax.scan(lambda c, _: (c + 1, None), s, None, length=steps)[0])
    return _loops[key](init_state)
