"""tree_map_with_path over the params, looking each leaf's gradient and velocity up by its path;
arguments passed on by keyword."""
from typing import Any, NamedTuple

import jax


class OptimizerState(NamedTuple):
    params: Any
    velocity: Any


def _at(tree, path):
    for key in path:
        tree = tree[key.key if hasattr(key, "key") else key.idx]
    return tree


def momentum_update(state, gradients, learning_rate, momentum):
    velocity = jax.tree_util.tree_map_with_path(
        lambda path, v: momentum * v + learning_rate * _at(gradients, path), state.velocity
    )
    params = jax.tree_util.tree_map_with_path(lambda path, p: p - _at(velocity, path), state.params)
    return OptimizerState(velocity=velocity, params=params)


jitted_momentum_update = jax.jit(momentum_update)
