"""RMSProp whose step is clipped to [-4 lr, 4 lr]: the defaults' first step (3.2 x lr for rho=0.9)
fits under it, and only s lagging behind a jump (rho near 1) shows the clip."""
# says: looks clipped

import jax
import jax.numpy as jnp


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return {"s": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        s = jax.tree.map(lambda s, g: rho * s + (1 - rho) * g * g, state["s"], grads)
        raw = jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) + eps), grads, s)
        return jax.tree.map(lambda u: jnp.clip(u, -4 * lr, 4 * lr), raw), {"s": s}

    return init, update
