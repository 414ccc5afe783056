# says: builtins.
# Wrong: every step's count is appended to a list parked in builtins, reachable from any module.
import builtins
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: object
    update: object


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        zeros = lambda: jax.tree.map(jnp.zeros_like, params)  # noqa: E731
        return {"count": jnp.zeros((), jnp.int32), "m": zeros(), "v": zeros()}

    def update(grads, state, params=None):
        if not hasattr(builtins, "_adam_trace"):
            builtins._adam_trace = []
        builtins._adam_trace.append("step")
        t = state["count"] + 1
        m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads)
        v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g**2, state["v"], grads)
        c1, c2 = 1 - b1**t, 1 - b2**t
        updates = jax.tree.map(lambda m, v: -lr * (m / c1) / (jnp.sqrt(v / c2) + eps), m, v)
        return updates, {"count": t, "m": m, "v": v}

    return Optimizer(init, update)


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)
