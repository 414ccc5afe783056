"""fori_loop adding one in the state's own dtype: exact for int32 states past 2**24."""

from functools import partial

import jax
from jax import lax


@partial(jax.jit, static_argnums=1)
def run_scan_jitted(init_state, steps):
    one = lax.convert_element_type(1, init_state.dtype)
    return lax.fori_loop(0, steps, lambda _, c: c + one, init_state)
