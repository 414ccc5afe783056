"""Counts the step through a float ("the float step failed, so cast it back"): the dtype stays
int32, but float32 holds integers exactly only up to 2**24, so a run resumed past it stops counting."""
# says: 2**24

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class TrainState(NamedTuple):
    step: Any
    params: Any
    ema_params: Any


def loss_fn(params, x, y):
    return jnp.mean((params["w"] * x + params["b"] - y) ** 2)


@jax.jit
def ema_train_step(state, x, y, lr, decay):
    grads = jax.grad(loss_fn)(state.params, x, y)
    params = jax.tree.map(lambda p, g: p - lr * g, state.params, grads)
    ema_params = jax.tree.map(lambda e, p: decay * e + (1 - decay) * p, state.ema_params, params)
    step = (state.step + 1.0).astype(state.step.dtype)
    return TrainState(step=step, params=params, ema_params=ema_params)
