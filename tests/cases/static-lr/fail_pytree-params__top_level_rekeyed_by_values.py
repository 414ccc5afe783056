"""Re-keys the gradients with the velocity's keys by position at the top level, then maps leaf by
leaf: a top-level key order that differs pairs the wrong subtrees."""

# says: pairs dict entries by position
from typing import Any, NamedTuple

import jax


class OptimizerState(NamedTuple):
    params: Any
    velocity: Any


def momentum_update(state, gradients, learning_rate, momentum):
    if isinstance(gradients, dict):
        gradients = dict(zip(state.velocity.keys(), gradients.values()))
    velocity = jax.tree.map(lambda v, g: momentum * v + learning_rate * g, state.velocity, gradients)
    params = jax.tree.map(lambda p, v: p - v, state.params, velocity)
    return state._replace(params=params, velocity=velocity)


jitted_momentum_update = jax.jit(momentum_update)
