"""eps used only to guard a zero second moment (jnp.where), not added to the denominator: on
tiny gradients (1e-8 and below) the step is about lr instead of lr/2."""
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
        return AdamState(jnp.zeros((), jnp.int32), jax.tree.map(jnp.zeros_like, params), jax.tree.map(jnp.zeros_like, params))

    def update(grads, state, params=None):
        t = state.count + 1
        m = jax.tree.map(lambda m_, g: b1 * m_ + (1 - b1) * g, state.m, grads)
        v = jax.tree.map(lambda v_, g: b2 * v_ + (1 - b2) * g * g, state.v, grads)

        def step(m_, v_):
            denom = jnp.sqrt(v_ / (1 - b2**t))
            return -lr * (m_ / (1 - b1**t)) / jnp.where(denom == 0, eps, denom)

        return jax.tree.map(step, m, v), AdamState(t, m, v)

    return Optimizer(init, update)


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)
