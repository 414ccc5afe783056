from functools import partial
import jax


@partial(jax.jit, static_argnums=1)
def update_counter(count, increment):
    return count + 1, increment
