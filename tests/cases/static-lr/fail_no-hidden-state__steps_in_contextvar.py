# says: STEP.get()
# Wrong: the number of steps taken is kept in a ContextVar, set on every call.
import contextvars
from typing import Any, NamedTuple

import jax

STEP = contextvars.ContextVar("momentum_step", default=0)


class MomentumState(NamedTuple):
    params: Any
    velocity: Any


def momentum_update(state, gradients, learning_rate, momentum):
    STEP.set(STEP.get() + 1)
    new_v = jax.tree.map(lambda v, g: momentum * v + learning_rate * g, state.velocity, gradients)
    return state._replace(params=jax.tree.map(lambda p, v: p - v, state.params, new_v), velocity=new_v)


jitted_momentum_update = jax.jit(momentum_update)
