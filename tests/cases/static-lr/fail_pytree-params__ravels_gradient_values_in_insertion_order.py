"""Flattens the gradients with ravel_pytree of list(gradients.values()) (insertion order) but the
velocity and params by ravel_pytree of the dicts (sorted keys): right only when both orders agree."""
# says: than sorted, at both levels
from typing import Any, NamedTuple

import jax
from jax.flatten_util import ravel_pytree


class OptimizerState(NamedTuple):
    params: Any
    velocity: Any


def momentum_update(state, gradients, learning_rate, momentum):
    p, unravel = ravel_pytree(state.params)
    v, _ = ravel_pytree(state.velocity)
    g, _ = ravel_pytree(list(gradients.values()) if isinstance(gradients, dict) else gradients)
    v = momentum * v + learning_rate * g
    return OptimizerState(params=unravel(p - v), velocity=unravel(v))


jitted_momentum_update = jax.jit(momentum_update)
