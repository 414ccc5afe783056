# The new velocity is clipped to [-5, 5]: the same numbers while gradients are small, a capped step
# once a large gradient comes. The Sutskever form has no clip.
# says: clipped
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class OptimizerState(NamedTuple):
    params: Any
    velocity: Any


def momentum_update(state, gradients, learning_rate, momentum):
    velocity = jax.tree.map(
        lambda v, g: jnp.clip(momentum * v + learning_rate * g, -5.0, 5.0), state.velocity, gradients
    )
    params = jax.tree.map(lambda p, v: p - v, state.params, velocity)
    return state._replace(params=params, velocity=velocity)


jitted_momentum_update = jax.jit(momentum_update)
