"""Adam whose step number lives in a ctypes counter bumped by update, not in the state (the state's
count is carried along but unused)."""
import ctypes
from typing import NamedTuple

import jax
import jax.numpy as jnp

_T = ctypes.c_int(0)


class Optimizer(NamedTuple):
    init: object
    update: object


class AdamState(NamedTuple):
    count: jax.Array
    m: object
    v: object


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        return AdamState(jnp.zeros((), jnp.int32), jax.tree.map(jnp.zeros_like, params), jax.tree.map(jnp.zeros_like, params))

    def update(grads, state, params=None):
        _T.value += 1
        t = state.count + 1
        m = jax.tree.map(lambda m_, g: b1 * m_ + (1 - b1) * g, state.m, grads)
        v = jax.tree.map(lambda v_, g: b2 * v_ + (1 - b2) * jnp.square(g), state.v, grads)
        step = jax.tree.map(lambda m_, v_: -lr * (m_ / (1 - b1**t)) / (jnp.sqrt(v_ / (1 - b2**t)) + eps), m, v)
        return step, AdamState(t, m, v)

    return Optimizer(init, update)


def apply_updates(params, updates):
    return jax.tree.map(jnp.add, params, updates)
