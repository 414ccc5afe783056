import jax
from jax import lax


@jax.jit
def run_scan_jitted(init_state, steps):
    # fori_loop accepts a traced upper bound (it lowers to a while loop).
    return lax.fori_loop(0, steps, lambda i, c: c + 1, init_state)
