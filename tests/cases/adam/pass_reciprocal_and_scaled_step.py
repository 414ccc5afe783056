# Right, written another way: one step size per call, and a reciprocal instead of a division
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        return {
            "count": jnp.asarray(0, jnp.int32),
            "mu": jax.tree.map(jnp.zeros_like, params),
            "nu": jax.tree.map(jnp.zeros_like, params),
        }

    def update(grads, state, params=None):
        count = state["count"] + 1
        mu = jax.tree.map(lambda m, g: m + (1 - b1) * (g - m), state["mu"], grads)
        nu = jax.tree.map(lambda v, g: v + (1 - b2) * (g * g - v), state["nu"], grads)
        c1, c2 = 1 - b1**count, 1 - b2**count

        def step(m, v):
            return -lr * (m / c1) * jnp.reciprocal(jnp.sqrt(v / c2) + eps)

        return jax.tree.map(step, mu, nu), {"count": count, "mu": mu, "nu": nu}

    return Optimizer(init, update)


def apply_updates(params, updates):
    return jax.tree_util.tree_map(lambda p, u: p + u, params, updates)
