"""Reference solution: scan-steps."""

from functools import partial

import jax
from jax import lax


def add_one(carry, _):
    """Scan body: one step of the counter, no per-step output."""
    return carry + 1, None


@partial(jax.jit, static_argnames="steps")
def run_scan_jitted(init_state, steps):
    """Add 1 to init_state `steps` times; steps is static because it fixes scan's length."""
    final, _ = lax.scan(add_one, init_state, xs=None, length=steps)
    return final
