# fori_loop with a static trip count, steps passed by keyword or position.
import jax
from jax import lax


def _run(init_state, steps):
    return lax.fori_loop(0, steps, lambda i, c: c + 1, init_state)


run_scan_jitted = jax.jit(_run, static_argnums=(1,))
