# Correct: update reads a debug switch from the environment on every call, and never writes it.
import os

import jax
import jax.numpy as jnp


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return jax.tree.map(jnp.zeros_like, params)

    def update(grads, state, params=None):
        if os.environ.get("RMSPROP_TRACE") == "1":
            print("rmsprop step")
        s = jax.tree.map(lambda s, g: rho * s + (1 - rho) * g * g, state, grads)
        return jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) + eps), grads, s), s

    return init, update
