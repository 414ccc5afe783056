# says: starts at [1, 1, 1], not at zero

from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


class RMSPropState(NamedTuple):
    count: jax.Array
    s: dict


def rmsprop(lr, rho=0.9, eps=1e-8):
    """RMSProp as an (init, update) pair of pure functions."""

    def init(params):
        return RMSPropState(count=jnp.zeros([], jnp.int32), s=jax.tree.map(jnp.ones_like, params))

    def update(grads, state, params=None):
        s = jax.tree.map(lambda s, g: rho * s + (1 - rho) * g * g, state.s, grads)
        updates = jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) + eps), grads, s)
        return updates, RMSPropState(count=state.count + 1, s=s)

    return Optimizer(init, update)
