"""eps only replaces a zero root (jnp.where), instead of being added to it."""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: object
    update: object


class RMSPropState(NamedTuple):
    s: object


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return RMSPropState(jax.tree.map(jnp.zeros_like, params))

    def update(grads, state, params=None):
        s = jax.tree.map(lambda s_, g: rho * s_ + (1 - rho) * g * g, state.s, grads)
        def step(g, s_):
            root = jnp.sqrt(s_)
            return -lr * g / jnp.where(root > 0, root, eps)
        return jax.tree.map(step, grads, s), RMSPropState(s)

    return Optimizer(init, update)
