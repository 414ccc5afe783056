import jax
import jax.numpy as jnp
from jax import lax


def update_counter(count, increment):
    # One iteration of a fori_loop adding one: silly, but correct.
    new = lax.fori_loop(0, 1, lambda i, c: c + 1, count)
    return new, lax.stop_gradient(increment)
