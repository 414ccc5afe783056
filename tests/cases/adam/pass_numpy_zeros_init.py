# Right: init builds the moments with NumPy from each parameter (np.zeros_like keeps shape and
# dtype); a trace cannot run it, so checks that trace init fall back to calling it for real.
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class State(NamedTuple):
    count: jax.Array
    m: dict
    v: dict


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        m = jax.tree.map(lambda p: jnp.asarray(np.zeros_like(p)), params)
        v = jax.tree.map(lambda p: jnp.asarray(np.zeros_like(p)), params)
        return State(jnp.zeros((), jnp.int32), m, v)

    def update(grads, state, params=None):
        t = state.count + 1
        m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state.m, grads)
        v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * jnp.square(g), state.v, grads)
        mc, vc = 1 - b1**t, 1 - b2**t
        return jax.tree.map(lambda m, v: -lr * (m / mc) / (jnp.sqrt(v / vc) + eps), m, v), State(t, m, v)

    return init, update


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)
