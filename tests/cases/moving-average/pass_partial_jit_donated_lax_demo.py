from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

initial_state = (jnp.float32(0), jnp.int32(0))


@partial(jax.jit, donate_argnums=0)
def update_moving_average(state: tuple[jax.Array, jax.Array], new_value: jax.Array):
    """One step of a running mean."""
    total, count = state
    total = lax.add(total, new_value)
    count = lax.add(count, jnp.int32(1))
    return (total, count), lax.div(total, count.astype(total.dtype))


if __name__ == "__main__":
    st = initial_state
    for v in [2.0, 4.0, 6.0]:
        st, avg = update_moving_average(st, jnp.float32(v))
        print(avg)
