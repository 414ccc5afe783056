from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class OptimizerState(NamedTuple):
    params: dict
    velocity: dict


def momentum_update(state, gradients, learning_rate, momentum):
    tu = jax.tree_util
    new_v = tu.tree_map(lambda v, g: jnp.add(momentum * v, learning_rate * g), state.velocity, gradients)
    new_p = tu.tree_map(jnp.subtract, state.params, new_v)
    return OptimizerState(params=new_p, velocity=new_v)


# momentum is constant in a run; keeping it static is harmless for this check.
jitted_momentum_update = jax.jit(momentum_update, static_argnames=("momentum",))
