# says: was deleted, donated
# Wrong: update donates the state it is given, so the caller's arrays are gone after a step.
import functools

import jax
import jax.numpy as jnp


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return {"s": jax.tree.map(jnp.zeros_like, params)}

    @functools.partial(jax.jit, donate_argnames="state")
    def update(grads, state, params=None):
        s = jax.tree.map(lambda s, g: rho * s + (1 - rho) * g**2, state["s"], grads)
        return jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) + eps), grads, s), {"s": s}

    return init, update
