# Mutant: the denominator uses the old s, before g**2 is mixed in (divides by ~eps at step 1).
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


class RMSPropState(NamedTuple):
    s: dict


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return RMSPropState(s=jax.tree.map(jnp.zeros_like, params))

    def update(grads, state, params=None):
        s = jax.tree.map(lambda s, g: rho * s + (1 - rho) * g * g, state.s, grads)
        updates = jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) + eps), grads, state.s)
        return updates, RMSPropState(s=s)

    return Optimizer(init, update)

