from functools import partial
import jax


@partial(jax.jit, static_argnames="steps")
def run_scan_jitted(init_state, steps):
    state = init_state
    for _ in range(steps):
        state = state + 1
    return state
