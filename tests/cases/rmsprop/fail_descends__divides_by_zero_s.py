# says: the first NaN or inf appears here

from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


class RMSPropState(NamedTuple):
    s: dict  # running mean of squared gradients, same structure as params


def rmsprop(lr, rho=0.9, eps=1e-8):
    """RMSProp as an (init, update) pair of pure functions."""

    def init(params):
        return RMSPropState(s=jax.tree.map(jnp.zeros_like, params))

    def update(grads, state, params=None):
        s = jax.tree.map(lambda s, g: rho * s + (1 - rho) * g * g, state.s, grads)
        updates = jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) * 0.0), grads, s)
        return updates, RMSPropState(s=s)

    return Optimizer(init, update)
