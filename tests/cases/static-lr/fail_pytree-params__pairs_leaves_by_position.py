"""Walks the dicts itself and pairs velocity with gradients by position: right while both list
their keys in the same order."""
# says: keys in another order

from typing import Any, NamedTuple

import jax


class OptimizerState(NamedTuple):
    params: Any
    velocity: Any


def _map(f, a, b):
    if isinstance(a, dict):
        return {k: _map(f, x, y) for (k, x), y in zip(a.items(), b.values())}
    return f(a, b)


def momentum_update(state, gradients, learning_rate, momentum):
    velocity = _map(lambda v, g: momentum * v + learning_rate * g, state.velocity, gradients)
    params = _map(lambda p, v: p - v, state.params, velocity)
    return state._replace(params=params, velocity=velocity)


jitted_momentum_update = jax.jit(momentum_update)
