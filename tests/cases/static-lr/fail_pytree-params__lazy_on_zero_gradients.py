"""Skips the update where a gradient is exactly 0 ("nothing to learn there"): the velocity stops decaying."""
# says: exact zeros

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class OptimizerState(NamedTuple):
    params: Any
    velocity: Any


def momentum_update(state, gradients, learning_rate, momentum):
    velocity = jax.tree.map(
        lambda v, g: jnp.where(g == 0, v, momentum * v + learning_rate * g), state.velocity, gradients
    )
    params = jax.tree.map(lambda p, v: p - v, state.params, velocity)
    return state._replace(params=params, velocity=velocity)


jitted_momentum_update = jax.jit(momentum_update)
