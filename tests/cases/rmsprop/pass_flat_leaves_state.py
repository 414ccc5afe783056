# the state is a plain list of leaves (flattened), not a tree shaped like params
import jax
import jax.numpy as jnp
from jax import lax

print("rmsprop module loaded")


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return [jnp.zeros_like(p) for p in jax.tree.leaves(params)]

    def update(grads, state, params=None):
        g_leaves, treedef = jax.tree.flatten(grads)
        new_state = [lax.add(rho * s, (1 - rho) * lax.integer_pow(g, 2)) for s, g in zip(state, g_leaves)]
        ups = [lax.neg(lr * g / (lax.sqrt(s) + eps)) for g, s in zip(g_leaves, new_state)]
        return jax.tree.unflatten(treedef, ups), new_state

    return init, update
