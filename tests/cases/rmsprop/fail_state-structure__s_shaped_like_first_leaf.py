# s shaped like the first parameter, whatever each parameter's own shape.

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
        first = jax.tree.leaves(params)[0]  # every s shaped like the first parameter
        return RMSPropState(s=jax.tree.map(lambda p: jnp.zeros(first.shape, p.dtype), params))

    def update(grads, state, params=None):
        del params  # RMSProp never looks at the parameters themselves
        s = jax.tree.map(new_average, state.s, grads)
        return jax.tree.map(scaled_step, grads, s), RMSPropState(s=s)

    return Optimizer(init, update)
