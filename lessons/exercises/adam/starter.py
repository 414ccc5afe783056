from collections.abc import Callable
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    """Adam with bias correction, as a pure (init, update) pair."""

    def init(params):
        # TODO: a step count and two separate PyTrees of zeros (m, v).
        return None

    def update(grads, state, params=None):
        # TODO: update m and v, correct their bias,
        # return (updates, new_state).
        updates = jax.tree.map(jnp.zeros_like, grads)
        return updates, state

    return Optimizer(init, update)


def apply_updates(params, updates):
    """params + updates, leaf by leaf."""
    # TODO
    return params
