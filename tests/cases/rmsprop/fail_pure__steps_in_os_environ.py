# says: os.environ['RMSPROP_STEPS']
# Wrong: the step count lives in the process environment (a string every module can read), not in the state.
import os

import jax
import jax.numpy as jnp


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return {"s": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        os.environ["RMSPROP_STEPS"] = str(int(os.environ.get("RMSPROP_STEPS", "0")) + 1)
        s = jax.tree.map(lambda s, g: rho * s + (1 - rho) * g * g, state["s"], grads)
        updates = jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) + eps), grads, s)
        return updates, {"s": s}

    return init, update
