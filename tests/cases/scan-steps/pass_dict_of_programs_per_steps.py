"""One compiled loop per steps value, kept in a dict: a steps value seen before reuses its program."""

import jax
from jax import lax

_PROGRAMS = {}


def run_scan_jitted(init_state, steps):
    if steps not in _PROGRAMS:
        _PROGRAMS[steps] = jax.jit(lambda s: lax.fori_loop(0, steps, lambda i, c: c + 1, s))
    return _PROGRAMS[steps](init_state)
