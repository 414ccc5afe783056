# Mutant: eps under the square root.
# says: eps belongs outside the root
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        return (jnp.zeros([], jnp.int32), jax.tree.map(jnp.zeros_like, params), jax.tree.map(jnp.zeros_like, params))

    def update(grads, state, params=None):
        count, m, v = state
        t = count + 1
        m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, m, grads)
        v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, v, grads)
        updates = jax.tree.map(
            lambda m, v: -lr * (m / (1 - b1 ** t)) / jnp.sqrt(v / (1 - b2 ** t) + eps), m, v)
        return updates, (t, m, v)

    return Optimizer(init, update)


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)
