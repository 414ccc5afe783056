from functools import partial
import jax
from jax import lax


@partial(jax.jit, static_argnums=0)
def run_scan_jitted(init_state, steps):
    final, _ = lax.scan(lambda c, _: (c + 1, None), init_state, None, length=steps)
    return final
