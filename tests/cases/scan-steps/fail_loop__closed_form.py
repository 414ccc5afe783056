import jax


@jax.jit
def run_scan_jitted(init_state, steps):
    return init_state + steps
