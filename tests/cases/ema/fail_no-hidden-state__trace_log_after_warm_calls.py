"""Jitted at import and called once there; logs each trace to a list."""
# says: TRACES
from typing import NamedTuple, Any

import jax
import jax.numpy as jnp

TRACES = []


class TrainState(NamedTuple):
    step: Any
    params: Any
    ema_params: Any


@jax.jit
def ema_train_step(state, x, y, lr, decay):
    TRACES.append(state.step)
    g = jax.grad(lambda p: jnp.mean((p["w"] * x + p["b"] - y) ** 2))(state.params)
    params = {k: state.params[k] - lr * g[k] for k in state.params}
    ema = {k: decay * state.ema_params[k] + (1 - decay) * params[k] for k in params}
    return TrainState(state.step + 1, params, ema)
