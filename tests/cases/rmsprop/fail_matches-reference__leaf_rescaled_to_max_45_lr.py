# Each leaf's update scaled down so that its largest entry is at most 45 lr: rho = 0.999 reached
# 31 lr, below it, so the bound never showed. rho = 1 - 2**-17 reaches 362 lr.
# says: clipped
import jax
import jax.numpy as jnp


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return jax.tree.map(jnp.zeros_like, params)

    def update(grads, state, params=None):
        s = jax.tree.map(lambda s, g: rho * s + (1 - rho) * g**2, state, grads)

        def leaf(g, s):
            u = g / (jnp.sqrt(s) + eps)
            shrink = jnp.minimum(1.0, 45.0 / jnp.maximum(jnp.max(jnp.abs(u)), 1e-12))
            return -lr * u * shrink

        return jax.tree.map(leaf, grads, s), s

    return init, update
