"""Flattens every tree with one treedef: leaves pair by key, whatever order the dicts list them in."""

from typing import Any, NamedTuple

import jax


class OptimizerState(NamedTuple):
    params: Any
    velocity: Any


def momentum_update(state, gradients, learning_rate, momentum):
    p, treedef = jax.tree.flatten(state.params)
    v = treedef.flatten_up_to(state.velocity)
    g = treedef.flatten_up_to(gradients)
    v_new = [momentum * v_ + learning_rate * g_ for v_, g_ in zip(v, g)]
    p_new = [p_ - v_ for p_, v_ in zip(p, v_new)]
    return OptimizerState(treedef.unflatten(p_new), treedef.unflatten(v_new))


jitted_momentum_update = jax.jit(momentum_update)
