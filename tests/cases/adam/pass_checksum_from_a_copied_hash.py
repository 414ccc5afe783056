# Right: a salted sha256 kept at module level is only copied, never fed: each call hashes its own
# copy for a log line it does not keep.
import hashlib

import jax
import jax.numpy as jnp

_SALTED = hashlib.sha256(b"adam")


def _tag(n):
    h = _SALTED.copy()
    h.update(str(n).encode())
    return h.hexdigest()[:8]


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    _tag(lr)

    def init(params):
        return {
            "count": jnp.zeros([], jnp.int32),
            "m": jax.tree.map(jnp.zeros_like, params),
            "v": jax.tree.map(jnp.zeros_like, params),
        }

    def update(grads, state, params=None):
        _tag(len(jax.tree.leaves(grads)))
        t = state["count"] + 1
        m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads)
        v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, state["v"], grads)
        updates = jax.tree.map(lambda m, v: -lr * (m / (1 - b1**t)) / (jnp.sqrt(v / (1 - b2**t)) + eps), m, v)
        return updates, {**state, "count": t, "m": m, "v": v}

    return init, update


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)
