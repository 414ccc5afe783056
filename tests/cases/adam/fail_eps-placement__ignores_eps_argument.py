# Mutant: eps is in the signature, but the denominator uses a constant of its own.
# says: not the eps=0.1 passed in
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp

EPSILON = 1e-8


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        zeros = lambda: jax.tree.map(jnp.zeros_like, params)  # noqa: E731
        return {"t": jnp.zeros((), jnp.int32), "m": zeros(), "v": zeros()}

    def update(grads, state, params=None):
        t = state["t"] + 1
        m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads)
        v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, state["v"], grads)
        updates = jax.tree.map(
            lambda m, v: -lr * (m / (1 - b1**t)) / (jnp.sqrt(v / (1 - b2**t)) + EPSILON), m, v
        )
        return updates, {"t": t, "m": m, "v": v}

    return Optimizer(init, update)


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)
