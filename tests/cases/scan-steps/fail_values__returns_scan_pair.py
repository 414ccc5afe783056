from functools import partial
import jax
from jax import lax


@partial(jax.jit, static_argnames="steps")
def run_scan_jitted(init_state, steps):
    return lax.scan(lambda c, _: (c + 1, c + 1), init_state, None, length=steps)
