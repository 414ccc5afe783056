# Correct: reads a setting from the environment at import (never writes it), jits by alias.
import os
from typing import Any, NamedTuple

import jax

_VERBOSE = os.environ.get("MOMENTUM_VERBOSE", "") == "1"


class MomentumState(NamedTuple):
    params: Any
    velocity: Any


def momentum_update(state, gradients, learning_rate, momentum):
    velocity = jax.tree.map(lambda v, g: momentum * v + learning_rate * g, state.velocity, gradients)
    if _VERBOSE:
        print("step")
    return state._replace(params=jax.tree.map(lambda p, v: p - v, state.params, velocity), velocity=velocity)


jitted_momentum_update = jax.jit(momentum_update, donate_argnums=())
