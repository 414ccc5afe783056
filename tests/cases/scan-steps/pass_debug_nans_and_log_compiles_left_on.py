from functools import partial

import jax
from jax import lax

jax.config.update("jax_debug_nans", True)  # debugging switches a learner forgot to remove
jax.config.update("jax_log_compiles", True)


@partial(jax.jit, static_argnums=1)
def run_scan_jitted(init_state, steps):
    def body(c, _):
        return c + 1, None

    return lax.scan(body, init_state, None, length=steps)[0]
