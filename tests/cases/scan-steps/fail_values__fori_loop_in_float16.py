"""A fori_loop whose carry is the state in float16, cast back: right up to 2048, then x + 1 == x."""

# says: in float16
import jax
import jax.numpy as jnp
from jax import lax


def _run(init_state, steps):
    dtype = jnp.result_type(init_state)
    if not jnp.issubdtype(dtype, jnp.floating):
        return lax.fori_loop(0, steps, lambda i, c: c + 1, init_state)
    half = lax.fori_loop(0, steps, lambda i, c: c + jnp.float16(1), jnp.asarray(init_state, jnp.float16))
    return half.astype(dtype)


run_scan_jitted = jax.jit(_run, static_argnames="steps")
