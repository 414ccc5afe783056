# Mutant: update assigns the new s into the state dict it was given and returns it.
import jax
import jax.numpy as jnp


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return {"s": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        state["s"] = jax.tree.map(lambda s, g: rho * s + (1 - rho) * g * g, state["s"], grads)   # in place
        updates = jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) + eps), grads, state["s"])
        return updates, state

    return init, update
