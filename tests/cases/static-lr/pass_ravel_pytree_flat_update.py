"""The update on one flat vector: ravel_pytree of each tree (dicts flatten in sorted key order,
whatever order they were built in), then unravel with the params' own function."""
from typing import Any, NamedTuple

import jax
from jax.flatten_util import ravel_pytree


class OptimizerState(NamedTuple):
    params: Any
    velocity: Any


def momentum_update(state, gradients, learning_rate, momentum):
    p, unravel = ravel_pytree(state.params)
    v = momentum * ravel_pytree(state.velocity)[0] + learning_rate * ravel_pytree(gradients)[0]
    return state._replace(params=unravel(p - v), velocity=unravel(v))


jitted_momentum_update = jax.jit(momentum_update)
