"""static_argnums=1 on a while_loop counting down from steps; the state's dtype kept with lax.add
and a one of its own dtype."""
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnums=1)
def run_scan_jitted(init_state, steps):
    def body(carry):
        left, s = carry
        return left - 1, lax.add(s, jnp.ones_like(s))

    return lax.while_loop(lambda c: c[0] > 0, body, (steps, init_state))[1]
