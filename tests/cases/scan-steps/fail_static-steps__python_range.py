import jax


@jax.jit
def run_scan_jitted(init_state, steps):
    state = init_state
    for _ in range(steps):
        state = state + 1
    return state
