# eps is a parameter, but the update divides by a constant of its own
# says: not the eps=0.1 passed in
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return {"s": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        s = jax.tree.map(lambda s, g: rho * s + (1 - rho) * g * g, state["s"], grads)
        updates = jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) + 1e-8), grads, s)
        return updates, {"s": s}

    return Optimizer(init, update)
