"""A counter step, jitted with the count buffer donated."""
import functools

import jax
import jax.numpy as jnp
from jax import lax


@functools.partial(jax.jit, donate_argnums=(0,))
def update_counter(count: jax.Array, increment: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Advance by one; hand increment back."""
    return lax.add(count, jnp.ones_like(count)), increment


if __name__ == "__main__":
    c = jnp.int32(0)
    for i in range(3):
        c, inc = update_counter(c, jnp.int32(i))
        print("count", c, "increment", inc)
