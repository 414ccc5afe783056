from typing import Any, NamedTuple

import jax


class OptimizerState(NamedTuple):
    params: Any
    velocity: Any


def momentum_update(state, gradients, learning_rate, momentum):
    velocity = jax.tree.map(lambda v, g: momentum * v + learning_rate * g, state.velocity, gradients)
    params = jax.tree.map(lambda p, v: p - v, state.params, velocity)
    return OptimizerState(params=params, velocity=velocity)


_compiled_step = jax.jit(momentum_update)


def jitted_momentum_update(state, gradients, learning_rate, momentum):
    """A named entry point for the compiled step (the compiled program is built once)."""
    return _compiled_step(state, gradients, learning_rate, momentum)
