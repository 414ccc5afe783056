import jax
from jax import lax


def _loop(init_state, steps):
    final, _ = lax.scan(lambda c, _: (c + 1, None), init_state, None, length=steps)
    return final


def run_scan_jitted(init_state, steps):
    # jax.jit of the same module-level function shares one compile cache
    return jax.jit(_loop, static_argnums=1)(init_state, steps)
