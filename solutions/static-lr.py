"""Reference solution: static-lr."""

from typing import Any, NamedTuple

import jax


class OptimizerState(NamedTuple):
    params: Any
    velocity: Any


def momentum_update(state, gradients, learning_rate, momentum):
    """One momentum step, Sutskever form: v <- mu*v + lr*g, p <- p - v (leaf by leaf)."""
    velocity = jax.tree.map(lambda v, g: momentum * v + learning_rate * g, state.velocity, gradients)
    params = jax.tree.map(lambda p, v: p - v, state.params, velocity)
    return state._replace(params=params, velocity=velocity)


# learning_rate and momentum stay dynamic: a new value reuses the compiled program.
jitted_momentum_update = jax.jit(momentum_update)
