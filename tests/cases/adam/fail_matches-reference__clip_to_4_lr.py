"""Expect: fail matches-reference -- updates bounded to 4 x lr ('safety')."""
# says: clipped
from typing import NamedTuple, Callable

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        z = lambda p: jnp.zeros_like(p)
        return (jnp.zeros((), jnp.int32), jax.tree.map(z, params), jax.tree.map(z, params))

    def update(grads, state, params=None):
        count, m, v = state
        t = count + 1
        m = jax.tree.map(lambda a, g: b1 * a + (1 - b1) * g, m, grads)
        v = jax.tree.map(lambda a, g: b2 * a + (1 - b2) * g**2, v, grads)
        def u(mm, vv):
            raw = -lr * (mm / (1 - b1**t)) / (jnp.sqrt(vv / (1 - b2**t)) + eps)
            return jnp.clip(raw, -4 * lr, 4 * lr)
        return jax.tree.map(u, m, v), (t, m, v)

    return Optimizer(init, update)


def apply_updates(params, updates):
    return jax.tree.map(jnp.add, params, updates)
