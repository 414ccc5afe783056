# says: was deleted, donated
# Wrong: update is pre-jitted and donates the optimizer state it is given: the caller's arrays are deleted
from typing import NamedTuple

import jax
import jax.numpy as jnp


class AdamState(NamedTuple):
    count: jax.Array
    m: dict
    v: dict


class Optimizer(NamedTuple):
    init: object
    update: object


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        return AdamState(jnp.zeros((), jnp.int32), jax.tree.map(jnp.zeros_like, params),
                         jax.tree.map(jnp.zeros_like, params))

    def update(grads, state, params=None):
        t = state.count + 1
        m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state.m, grads)
        v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, state.v, grads)
        bc1, bc2 = 1 - b1 ** t, 1 - b2 ** t
        return jax.tree.map(lambda m, v: -lr * (m / bc1) / (jnp.sqrt(v / bc2) + eps), m, v), AdamState(t, m, v)

    return Optimizer(init, jax.jit(update, donate_argnums=1))


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)
