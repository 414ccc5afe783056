"""The compiled step donates, but only a copy the wrapper makes: the caller's state is left as it was."""
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class OptimizerState(NamedTuple):
    params: Any
    velocity: Any


def momentum_update(state, gradients, learning_rate, momentum):
    velocity = jax.tree.map(lambda v, g: momentum * v + learning_rate * g, state.velocity, gradients)
    return OptimizerState(params=jax.tree.map(jnp.subtract, state.params, velocity), velocity=velocity)


_donating = jax.jit(momentum_update, donate_argnums=0)


def jitted_momentum_update(state, gradients, learning_rate, momentum):
    return _donating(jax.tree.map(jnp.copy, state), gradients, learning_rate, momentum)
