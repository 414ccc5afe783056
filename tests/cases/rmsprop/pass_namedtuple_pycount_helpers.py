from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


class State(NamedTuple):
    steps: Any      # a Python int at first: weak int32, and it stays weak under jit
    sq_avg: Any


def _ema(old, new, decay):
    return decay * old + (1.0 - decay) * new


def _scale(g, s, lr, eps):
    return -(lr / (jnp.sqrt(s) + eps)) * g


def rmsprop(lr: float, rho: float = 0.9, eps: float = 1e-8) -> Optimizer:
    """RMSProp, as in the prompt."""
    def init(params):
        return State(0, jax.tree.map(lambda p: jnp.zeros(jnp.shape(p), jnp.asarray(p).dtype), params))

    def update(grads, state, params=None):
        sq = jax.tree.map(lambda s, g: _ema(s, g * g, rho), state.sq_avg, grads)
        return jax.tree.map(lambda g, s: _scale(g, s, lr, eps), grads, sq), State(state.steps + 1, sq)

    return Optimizer(init=init, update=update)
