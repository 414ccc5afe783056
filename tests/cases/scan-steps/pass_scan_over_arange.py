from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


def _body(carry, t):
    # t is the step index; it is not needed for the count
    return carry + jnp.ones((), dtype=jnp.result_type(carry)), t


@partial(jax.jit, static_argnames=["steps"])
def run_scan_jitted(init_state, steps):
    final, trace = lax.scan(_body, jnp.asarray(init_state), jnp.arange(steps), unroll=2)
    return final
