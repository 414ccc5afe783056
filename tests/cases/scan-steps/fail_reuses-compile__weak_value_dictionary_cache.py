"""Programs cached in a WeakValueDictionary 'so they can be freed': nothing else holds them, so each
is gone by the next call and every call compiles again."""
import weakref

import jax
from jax import lax

_PROGRAMS = weakref.WeakValueDictionary()


def _build(steps):
    return jax.jit(lambda s: lax.scan(lambda c, _: (c + 1, None), s, None, length=steps)[0])


def run_scan_jitted(init_state, steps):
    fn = _PROGRAMS.get(steps)
    if fn is None:
        fn = _build(steps)
        _PROGRAMS[steps] = fn
    return fn(init_state)
