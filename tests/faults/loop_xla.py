"""Fault: an endless XLA while_loop inside a jitted function (no Python to interrupt)."""
import jax
from jax import lax


@jax.jit
def update_counter(count, increment):
    count = lax.while_loop(lambda c: c == c, lambda c: c + 1, count)  # cond is always true
    return count, increment
