import jax
from jax import lax


def run_scan_jitted(init_state, steps):
    @jax.jit
    def run(start):
        final, _ = lax.scan(lambda c, _: (c + 1, None), start, None, length=steps)
        return final
    return run(init_state)
