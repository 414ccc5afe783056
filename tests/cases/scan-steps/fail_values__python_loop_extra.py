from functools import partial

import jax


@partial(jax.jit, static_argnums=1)
def run_scan_jitted(init_state, steps):
    state = init_state
    for _ in range(steps + 1):
        state = state + 1
    return state
