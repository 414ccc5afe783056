"""The velocity mixed in bfloat16 'to save bandwidth' and stored back as float32: the state keeps
its dtype, and every step drifts by bfloat16's rounding (about 3 digits)."""
# says: computing in bfloat16

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class OptimizerState(NamedTuple):
    params: Any
    velocity: Any


def momentum_update(state, gradients, learning_rate, momentum):
    def v_new(v, g):
        return (momentum * v.astype(jnp.bfloat16) + learning_rate * g.astype(jnp.bfloat16)).astype(v.dtype)

    velocity = jax.tree.map(v_new, state.velocity, gradients)
    params = jax.tree.map(lambda p, v: p - v, state.params, velocity)
    return state._replace(params=params, velocity=velocity)


jitted_momentum_update = jax.jit(momentum_update)
