# says: os.environ['MOMENTUM_LAST_LR']
# Wrong: the learning rate of the last step is written to the environment "for logging".
import os
from typing import Any, NamedTuple

import jax


class State(NamedTuple):
    params: Any
    velocity: Any


def momentum_update(state, gradients, learning_rate, momentum):
    os.environ["MOMENTUM_LAST_LR"] = repr(learning_rate)
    velocity = jax.tree.map(lambda v, g: momentum * v + learning_rate * g, state.velocity, gradients)
    return state._replace(params=jax.tree.map(jax.numpy.subtract, state.params, velocity), velocity=velocity)


jitted_momentum_update = jax.jit(momentum_update)
