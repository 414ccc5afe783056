"""The step advanced through a float32 (step + 1.0, cast back): exact until 2**24, then it stalls."""

# says: counted through a float
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
    params = {k: state.params[k] - lr * grads[k] for k in state.params}
    ema = {k: decay * state.ema_params[k] + (1 - decay) * params[k] for k in params}
    step = (state.step.astype(jnp.float32) + 1.0).astype(state.step.dtype)
    return TrainState(step, params, ema)
