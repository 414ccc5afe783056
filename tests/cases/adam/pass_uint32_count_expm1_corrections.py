"""Adam with a uint32 count and the corrections written through exp/log1p: 1 - b**t as
-expm1(t * log(b)); the moments as m + (1 - b1) * (g - m)."""
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
        return AdamState(jnp.zeros((), jnp.uint32), jax.tree.map(jnp.zeros_like, params), jax.tree.map(jnp.zeros_like, params))

    def update(grads, state, params=None):
        t = state.count + jnp.uint32(1)
        tf = t.astype(jnp.float32)
        c1 = -jnp.expm1(tf * jnp.log(jnp.float32(b1)))
        c2 = -jnp.expm1(tf * jnp.log(jnp.float32(b2)))
        m = jax.tree.map(lambda m_, g: m_ + (1 - b1) * (g - m_), state.m, grads)
        v = jax.tree.map(lambda v_, g: v_ + (1 - b2) * (g * g - v_), state.v, grads)
        step = jax.tree.map(lambda m_, v_: (-lr * (m_ / c1) / (jnp.sqrt(v_ / c2) + eps)).astype(m_.dtype), m, v)
        return step, AdamState(t, m, v)

    return Optimizer(init, update)


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: (p + u).astype(p.dtype), params, updates)
