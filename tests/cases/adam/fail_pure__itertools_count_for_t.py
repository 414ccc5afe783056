# Mutant: the step number comes from an itertools.count in the closure, not from the state:
# called as plain Python, the same grads and a fresh state give other updates on every call.
# says: update remembers something between calls outside the state it returns
import itertools

import jax
import jax.numpy as jnp


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    steps = itertools.count(1)

    def init(params):
        return {"count": jnp.zeros([], jnp.int32), "m": jax.tree.map(jnp.zeros_like, params), "v": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        t = next(steps)
        m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads)
        v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, state["v"], grads)
        updates = jax.tree.map(lambda m, v: -lr * (m / (1 - b1**t)) / (jnp.sqrt(v / (1 - b2**t)) + eps), m, v)
        return updates, {"count": state["count"] + 1, "m": m, "v": v}

    return init, update


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)
