"""The parameter step taken in bfloat16 (the velocity is right): p_new = p - v_new computed on
bfloat16 copies and cast back, so the new params carry bfloat16's rounding."""
# says: bfloat16

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class OptimizerState(NamedTuple):
    params: Any
    velocity: Any


def momentum_update(state, gradients, learning_rate, momentum):
    velocity = jax.tree.map(lambda v, g: momentum * v + learning_rate * g, state.velocity, gradients)
    bf = jnp.bfloat16
    params = jax.tree.map(lambda p, v: (p.astype(bf) - v.astype(bf)).astype(p.dtype), state.params, velocity)
    return OptimizerState(params, velocity)


jitted_momentum_update = jax.jit(momentum_update)
