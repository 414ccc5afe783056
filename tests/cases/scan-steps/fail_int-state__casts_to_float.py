from functools import partial
import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames="steps")
def run_scan_jitted(init_state, steps):
    start = jnp.asarray(init_state, jnp.float32)
    final, _ = lax.scan(lambda c, _: (c + 1, None), start, None, length=steps)
    return final
