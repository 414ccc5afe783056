
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


class RMSPropState(NamedTuple):
    s: dict  # running mean of squared gradients, same structure as params


def rmsprop(lr, rho=0.9, eps=1e-8):
    """RMSProp as an (init, update) pair of pure functions."""

    def init(params):
        return {"step": jnp.zeros([], jnp.int32), "rho": jnp.float32(rho), "s": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        r = state["rho"]
        s = jax.tree.map(lambda s, g: (r * s + (1 - r) * g * g).astype(s.dtype), state["s"], grads)
        updates = jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) + eps), grads, s)
        return updates, {"step": state["step"] + 1, "rho": r, "s": s}

    return Optimizer(init, update)
