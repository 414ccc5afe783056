"""RMSProp with the division written as a product and the square root through lax.sqrt, s kept in a
list of leaves: steps of 10 x lr after a jump are what the formula gives, and come out unbounded."""

import jax
import jax.numpy as jnp
from jax import lax


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        leaves, tree = jax.tree.flatten(params)
        return [jnp.zeros_like(p) for p in leaves]

    def update(grads, state, params=None):
        g_leaves, tree = jax.tree.flatten(grads)
        s = [rho * a + (1 - rho) * g * g for a, g in zip(state, g_leaves)]
        steps = [-lr * g * (1.0 / (lax.sqrt(a) + eps)) for g, a in zip(g_leaves, s)]
        return jax.tree.unflatten(tree, steps), s

    return init, update
