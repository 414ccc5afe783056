"""Updates bounded to 12 x lr."""
# says: clipped
from typing import NamedTuple, Callable

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return {"s": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        s = jax.tree.map(lambda a, g: rho * a + (1 - rho) * g * g, state["s"], grads)
        u = jax.tree.map(lambda g, a: jnp.clip(-lr * g / (jnp.sqrt(a) + eps), -12 * lr, 12 * lr), grads, s)
        return u, {"s": s}

    return Optimizer(init, update)
