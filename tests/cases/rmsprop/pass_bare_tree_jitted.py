from collections import namedtuple

import jax
import jax.numpy as jnp

Optimizer = namedtuple("Optimizer", ["init", "update"])


def rmsprop(lr, rho=0.9, eps=1e-8):
    # the state is the tree of squared-gradient averages itself
    def init(params):
        leaves, treedef = jax.tree.flatten(params)
        return treedef.unflatten([jnp.zeros_like(x) for x in leaves])

    @jax.jit
    def update(grads, state, params=None):
        g_leaves, treedef = jax.tree.flatten(grads)
        s_leaves = treedef.flatten_up_to(state)
        new_s = [rho * s + (1.0 - rho) * g * g for s, g in zip(s_leaves, g_leaves)]
        ups = [-lr * g / (jnp.sqrt(s) + eps) for s, g in zip(new_s, g_leaves)]
        return treedef.unflatten(ups), treedef.unflatten(new_s)

    return Optimizer(init, update)
