"""The step kept in int16 "to save memory": right for short runs, it wraps past 32767 steps."""

# says: wraps
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
    ema = jax.tree.map(lambda e, p: decay * e + (1 - decay) * p, state.ema_params, params)
    return TrainState(state.step.astype(jnp.int16) + jnp.int16(1), params, ema)
