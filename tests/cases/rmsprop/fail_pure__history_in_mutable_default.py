# Mutant: a mutable default argument collects the mean squared gradient of every call.
# says: update's default _history
import jax
import jax.numpy as jnp


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return {"s": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None, _history=[]):
        s = jax.tree.map(lambda s, g: rho * s + (1 - rho) * g * g, state["s"], grads)
        _history.append(jax.tree.leaves(s)[0].mean())
        return jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) + eps), grads, s), {"s": s}

    return init, update
