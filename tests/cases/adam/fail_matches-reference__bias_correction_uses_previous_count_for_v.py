# says: your m and v are right

from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


class AdamState(NamedTuple):
    count: jax.Array  # steps taken so far
    m: dict           # first moment, same structure as params
    v: dict           # second moment, same structure as params


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    """Adam with bias correction, as an (init, update) pair of pure functions."""

    def init(params):
        # Two separate tree.map calls: m and v must not share buffers (donation).
        return AdamState(count=jnp.zeros([], jnp.int32),
                         m=jax.tree.map(jnp.zeros_like, params),
                         v=jax.tree.map(jnp.zeros_like, params))

    def update(grads, state, params=None):
        t = state.count + 1
        m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state.m, grads)
        v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, state.v, grads)
        c1 = 1 - b1 ** t
        c2 = 1 - b2 ** jnp.maximum(state.count, 1)
        updates = jax.tree.map(lambda m, v: -lr * (m / c1) / (jnp.sqrt(v / c2) + eps), m, v)
        return updates, AdamState(count=t, m=m, v=v)

    return Optimizer(init, update)


def apply_updates(params, updates):
    """params + updates, leaf by leaf."""
    return jax.tree.map(lambda p, u: p + u, params, updates)
