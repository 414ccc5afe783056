# Correct: a functools.cache'd helper of no arguments hands back an immutable tuple of functions.
import functools

import jax
import jax.numpy as jnp


@functools.cache
def _ops():
    return (jnp.zeros_like, jnp.sqrt, jnp.square)


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    zeros_like, sqrt, square = _ops()

    def init(params):
        return (jnp.zeros((), jnp.int32), jax.tree.map(zeros_like, params), jax.tree.map(zeros_like, params))

    def update(grads, state, params=None):
        count, m, v = state
        t = count + 1
        m = jax.tree.map(lambda a, g: b1 * a + (1 - b1) * g, m, grads)
        v = jax.tree.map(lambda a, g: b2 * a + (1 - b2) * square(g), v, grads)
        ups = jax.tree.map(lambda a, b: -lr * (a / (1 - b1**t)) / (sqrt(b / (1 - b2**t)) + eps), m, v)
        return ups, (t, m, v)

    return init, update


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)
