from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class TrainState(NamedTuple):
    step: Any
    params: Any
    ema_params: Any


def loss_fn(params, x, y):
    """Mean squared error of the linear model."""
    pred = params["w"] * x + params["b"]
    return jnp.mean((pred - y) ** 2)


@jax.jit
def ema_train_step(state, x, y, lr, decay):
    """One SGD step on params, the EMA update, and step + 1."""
    # TODO: compute the gradients, the new params, the new EMA params
    # and the new step.
    return state
