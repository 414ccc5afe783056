# Mutant: update also keeps the newest state in the factory's closure ("for a get_state() helper"):
# the results are right, but the optimizer keeps a history of its own between calls.
# says: last (closed over by update)
import jax
import jax.numpy as jnp


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    last = None

    def init(params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return {"count": jnp.zeros([], jnp.int32), "m": zeros, "v": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        nonlocal last
        t = state["count"] + 1
        m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads)
        v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, state["v"], grads)
        updates = jax.tree.map(lambda m, v: -lr * (m / (1 - b1**t)) / (jnp.sqrt(v / (1 - b2**t)) + eps), m, v)
        last = {"count": t, "m": m, "v": v}
        return updates, last

    def get_state():
        return last

    update.get_state = get_state
    return init, update


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)
