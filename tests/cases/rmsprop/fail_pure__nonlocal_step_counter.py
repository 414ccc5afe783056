# Mutant: a step counter in the factory's closure, moved with nonlocal on every call (for logging).
# says: steps (closed over by update)
import jax
import jax.numpy as jnp


def rmsprop(lr, rho=0.9, eps=1e-8):
    steps = 0

    def init(params):
        return jax.tree.map(jnp.zeros_like, params)

    def update(grads, state, params=None):
        nonlocal steps
        steps += 1
        s = jax.tree.map(lambda s, g: rho * s + (1 - rho) * g * g, state, grads)
        return jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) + eps), grads, s), s

    return init, update
