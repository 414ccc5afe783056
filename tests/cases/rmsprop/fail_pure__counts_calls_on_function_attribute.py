# Mutant: update counts its calls on a function attribute (to print every 100 steps).
# says: attributes of update
import jax
import jax.numpy as jnp


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return {"s": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        update.calls = getattr(update, "calls", 0) + 1
        s = jax.tree.map(lambda s, g: rho * s + (1 - rho) * g * g, state["s"], grads)
        return jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) + eps), grads, s), {"s": s}

    return init, update
