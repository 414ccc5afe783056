"""A while_loop whose trip count is a traced value: one compile for every steps."""
from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def run_scan_jitted(init_state: jax.Array, steps: int) -> jax.Array:
    """Add 1 to init_state, `steps` times."""
    def cond(carry):
        i, _ = carry
        return i < steps

    def body(carry):
        i, state = carry
        return i + 1, state + 1

    _, final = lax.while_loop(cond, body, (jnp.int32(0), init_state))
    return final


if __name__ == "__main__":
    print("demo:", run_scan_jitted(2.5, 3), run_scan_jitted(jnp.int32(1), 10))
