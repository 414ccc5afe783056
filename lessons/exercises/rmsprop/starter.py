from collections.abc import Callable
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


def rmsprop(lr, rho=0.9, eps=1e-8):
    """RMSProp as an (init, update) pair of pure functions."""

    def init(params):
        # TODO: one zero array per leaf of params.
        return ()

    def update(grads, state, params=None):
        # TODO: update s, then return (updates, new_state).
        updates = jax.tree.map(jnp.zeros_like, grads)
        return updates, state

    return Optimizer(init, update)
