import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=(1,))
def run_scan_jitted(init_state, steps=1):
    # with a Python-int bound, fori_loop becomes a scan
    return jax.lax.fori_loop(0, steps, lambda _, c: jnp.add(c, 1), init_state)


print("module loaded; 2.5 + 3 =", float(run_scan_jitted(2.5, 3)))
