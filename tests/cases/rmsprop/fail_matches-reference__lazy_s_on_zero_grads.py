"""Lazy RMSProp: s left as it was where a gradient is exactly 0."""
# says: exactly 0

from collections.abc import Callable
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable  # params -> state
    update: Callable  # (grads, state, params=None) -> (updates, new_state)


class RMSPropState(NamedTuple):
    s: object  # for each parameter, the moving average of its squared gradient


def rmsprop(lr, rho=0.9, eps=1e-8):
    """RMSProp as two pure functions over any PyTree of parameters."""

    def new_average(s, g):
        # The old average keeps weight rho; the newest squared gradient gets the rest.
        return rho * s + (1 - rho) * jnp.square(g)

    def scaled_step(g, s):
        # Divided by the root of the *updated* average: where gradients have been large,
        # the step is short.
        return -lr * g / (jnp.sqrt(s) + eps)

    def init(params):
        return RMSPropState(s=jax.tree.map(jnp.zeros_like, params))

    def update(grads, state, params=None):
        del params  # RMSProp never looks at the parameters themselves
        s = jax.tree.map(lambda s_, g: jnp.where(g == 0, s_, new_average(s_, g)), state.s, grads)
        return jax.tree.map(scaled_step, grads, s), RMSPropState(s=s)

    return Optimizer(init, update)
