# says: _ledger()
# Wrong: a functools.cache'd function of no arguments hands back one dict for the whole process,
# and update counts its calls in it.
import functools

import jax
import jax.numpy as jnp


@functools.cache
def _ledger():
    return {"updates": 0}


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return jax.tree.map(jnp.zeros_like, params)

    def update(grads, state, params=None):
        _ledger()["updates"] += 1
        s = jax.tree.map(lambda s, g: rho * s + (1 - rho) * jnp.square(g), state, grads)
        return jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) + eps), grads, s), s

    return init, update
