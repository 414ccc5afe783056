"""Adam with a 'safety' clip of every update to [-lr, lr]: Adam's step is about lr for steady
gradients, so only a jump after small gradients (|m_hat| > sqrt(v_hat)) shows it."""
# says: looks clipped

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
        t = state["count"] + 1
        m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads)
        v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g**2, state["v"], grads)
        c1, c2 = 1 - b1**t, 1 - b2**t

        def step(m, v):
            u = -lr * (m / c1) / (jnp.sqrt(v / c2) + eps)
            return jnp.clip(u, -lr, lr)

        return jax.tree.map(step, m, v), {"count": t, "m": m, "v": v}

    return Optimizer(init, update)


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)
