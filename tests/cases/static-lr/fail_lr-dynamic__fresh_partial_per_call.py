"""momentum bound with a functools.partial made inside the jitted entry point, on every call: a new
function object each time, so jax.jit traces and compiles again for every learning rate."""
# says: functools.partial

import functools
from typing import Any, NamedTuple

import jax


class OptimizerState(NamedTuple):
    params: Any
    velocity: Any


def momentum_update(state, gradients, learning_rate, momentum):
    velocity = jax.tree.map(lambda v, g: momentum * v + learning_rate * g, state.velocity, gradients)
    params = jax.tree.map(lambda p, v: p - v, state.params, velocity)
    return state._replace(params=params, velocity=velocity)


def jitted_momentum_update(state, gradients, learning_rate, momentum):
    step = jax.jit(functools.partial(momentum_update, momentum=momentum))
    return step(state, gradients, learning_rate)
