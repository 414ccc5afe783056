"""Fault: jax.jit replaced by the identity, to hide a Python branch on a traced value."""
import jax

jax.jit = lambda f, **kwargs: f


def update_counter(count, increment):
    if count >= 0:  # a Python `if` on a traced value: fails under a real jit
        return count + 1, increment
    return count + 1, increment  # right for negative counts too: only jit-once may fail
