# says: VELOCITY_LOG
# Wrong: every step appends the velocity it computed to a module-level log (no check looked before).
from typing import Any, NamedTuple

import jax

VELOCITY_LOG = []


class OptimizerState(NamedTuple):
    params: Any
    velocity: Any


def momentum_update(state, gradients, learning_rate, momentum):
    velocity = jax.tree.map(lambda v, g: momentum * v + learning_rate * g, state.velocity, gradients)
    VELOCITY_LOG.append(velocity)
    return OptimizerState(jax.tree.map(lambda p, v: p - v, state.params, velocity), velocity)


jitted_momentum_update = jax.jit(momentum_update)
