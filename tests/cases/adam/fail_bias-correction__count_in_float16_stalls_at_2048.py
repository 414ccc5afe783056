"""Adam with the count kept in float16 'to match mixed-precision params': n + 1 == n from 2048 on,
so the bias corrections freeze."""
# says: float16, which holds every integer only up to 2048
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


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        return AdamState(jnp.zeros((), jnp.float16), jax.tree.map(jnp.zeros_like, params), jax.tree.map(jnp.zeros_like, params))

    def update(grads, state, params=None):
        t = state.count + jnp.float16(1)
        m = jax.tree.map(lambda m_, g: b1 * m_ + (1 - b1) * g, state.m, grads)
        v = jax.tree.map(lambda v_, g: b2 * v_ + (1 - b2) * g * g, state.v, grads)
        tf = t.astype(jnp.float32)
        updates = jax.tree.map(lambda m_, v_: -lr * (m_ / (1 - b1**tf)) / (jnp.sqrt(v_ / (1 - b2**tf)) + eps), m, v)
        return updates, AdamState(t, m, v)

    return Optimizer(init, update)


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)
