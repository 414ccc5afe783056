"""Pairs each s with its gradient by zipping state.s.values() with grads.values(): right only when
the two dicts list their keys in the same order."""
# says: paired with the gradients by position
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: object
    update: object


class RMSPropState(NamedTuple):
    s: object


def _pairwise(f, a, b):
    if isinstance(a, dict):
        return {k: _pairwise(f, x, y) for (k, x), y in zip(a.items(), b.values())}
    if isinstance(a, (list, tuple)):
        return type(a)(_pairwise(f, x, y) for x, y in zip(a, b))
    return f(a, b)


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return RMSPropState(jax.tree.map(jnp.zeros_like, params))

    def update(grads, state, params=None):
        s = _pairwise(lambda s_, g: rho * s_ + (1 - rho) * g * g, state.s, grads)
        return _pairwise(lambda g, s_: -lr * g / (jnp.sqrt(s_) + eps), grads, s), RMSPropState(s)

    return Optimizer(init, update)
