# says: decimal
# Wrong: every step sets the process's decimal precision (the same value each time): a write to a
# setting every module shares. Seen only from a call that starts where the setting is not already
# that value, so the judge's calls start from one of its own.
import decimal

import jax
import jax.numpy as jnp


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return {"s": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        decimal.getcontext().prec = 12
        s = jax.tree.map(lambda s, g: rho * s + (1 - rho) * g * g, state["s"], grads)
        updates = jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) + eps), grads, s)
        return updates, {"s": s}

    return init, update
