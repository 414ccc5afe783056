"""Adam pairing each moment with its gradient by zipping dict values: right only when the dicts
list their keys in the same order."""
# says: paired with the gradients by position
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: object
    update: object


class AdamState(NamedTuple):
    count: jax.Array
    m: object
    v: object


def _pairwise(f, a, b):
    if isinstance(a, dict):
        return {k: _pairwise(f, x, y) for (k, x), y in zip(a.items(), b.values())}
    if isinstance(a, (list, tuple)):
        return type(a)(_pairwise(f, x, y) for x, y in zip(a, b))
    return f(a, b)


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        return AdamState(jnp.zeros((), jnp.int32), jax.tree.map(jnp.zeros_like, params), jax.tree.map(jnp.zeros_like, params))

    def update(grads, state, params=None):
        t = state.count + 1
        m = _pairwise(lambda m_, g: b1 * m_ + (1 - b1) * g, state.m, grads)
        v = _pairwise(lambda v_, g: b2 * v_ + (1 - b2) * g * g, state.v, grads)
        step = jax.tree.map(lambda m_, v_: -lr * (m_ / (1 - b1**t)) / (jnp.sqrt(v_ / (1 - b2**t)) + eps), m, v)
        return step, AdamState(t, m, v)

    return Optimizer(init, update)


def apply_updates(params, updates):
    return jax.tree.map(jnp.add, params, updates)
