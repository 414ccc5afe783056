# says: _audit
# Wrong: an audit trail of the steps is hashed into a module-level sha256 object on every call: the
# hash's state is a history no container holds, and it grows with each update.
import hashlib

import jax
import jax.numpy as jnp

_audit = hashlib.sha256()


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        return {
            "count": jnp.zeros([], jnp.int32),
            "m": jax.tree.map(jnp.zeros_like, params),
            "v": jax.tree.map(jnp.zeros_like, params),
        }

    def update(grads, state, params=None):
        _audit.update(b"step")
        t = state["count"] + 1
        m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads)
        v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, state["v"], grads)
        updates = jax.tree.map(lambda m, v: -lr * (m / (1 - b1**t)) / (jnp.sqrt(v / (1 - b2**t)) + eps), m, v)
        return updates, {"count": t, "m": m, "v": v}

    return init, update


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)
