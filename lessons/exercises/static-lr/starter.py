from typing import Any, NamedTuple

import jax


class OptimizerState(NamedTuple):
    params: Any
    velocity: Any


def momentum_update(state, gradients, learning_rate, momentum):
    """One momentum step (Sutskever form); a new OptimizerState."""
    # TODO: v_new = momentum * v + learning_rate * g ; p_new = p - v_new,
    # leaf by leaf.
    return state


# TODO: should a learning rate be a static argument?
jitted_momentum_update = jax.jit(momentum_update, static_argnums=(2, 3))
