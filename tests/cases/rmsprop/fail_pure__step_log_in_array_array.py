"""Correct RMSProp, but update logs each call's step number in a module-level array.array."""
import array
from typing import NamedTuple

import jax
import jax.numpy as jnp

_CALLS = array.array("l")


class Optimizer(NamedTuple):
    init: object
    update: object


class RMSPropState(NamedTuple):
    s: object


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return RMSPropState(jax.tree.map(jnp.zeros_like, params))

    def update(grads, state, params=None):
        _CALLS.append(len(_CALLS))
        s = jax.tree.map(lambda s_, g: rho * s_ + (1 - rho) * jnp.square(g), state.s, grads)
        return jax.tree.map(lambda g, s_: -lr * g / (jnp.sqrt(s_) + eps), grads, s), RMSPropState(s)

    return Optimizer(init, update)
