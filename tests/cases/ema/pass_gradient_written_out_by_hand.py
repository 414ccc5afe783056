# The MSE gradient written out by hand (2 * mean(r * x), 2 * mean(r)): no clip, any size.
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class TrainState(NamedTuple):
    step: Any
    params: Any
    ema_params: Any


@jax.jit
def ema_train_step(state, x, y, lr, decay):
    r = state.params["w"] * x + state.params["b"] - y
    grads = {"w": 2.0 * jnp.mean(r * x), "b": 2.0 * jnp.mean(r)}
    params = {k: state.params[k] - lr * grads[k] for k in ("w", "b")}
    ema_params = {k: decay * state.ema_params[k] + (1.0 - decay) * params[k] for k in ("w", "b")}
    return TrainState(step=state.step + 1, params=params, ema_params=ema_params)
