from functools import partial

import jax
from jax import lax


@partial(jax.jit, static_argnames=("steps",), donate_argnums=(0,))
def run_scan_jitted(init_state, steps: int):
    """The caller hands its state over (donation); steps is a compile-time constant."""
    final, _ = lax.scan(lambda c, _: (c + 1, None), init_state, length=steps)
    return final
