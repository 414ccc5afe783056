"""Clips decay to at most 0.99 ('stability')."""
# says: clipped to at most 0.99
from typing import NamedTuple, Any

import jax
import jax.numpy as jnp


class TrainState(NamedTuple):
    step: Any
    params: Any
    ema_params: Any


@jax.jit
def ema_train_step(state, x, y, lr, decay):
    decay = jnp.minimum(decay, 0.99)
    g = jax.grad(lambda p: jnp.mean((p["w"] * x + p["b"] - y) ** 2))(state.params)
    params = {k: state.params[k] - lr * g[k] for k in state.params}
    ema = {k: decay * state.ema_params[k] + (1 - decay) * params[k] for k in params}
    return TrainState(state.step + 1, params, ema)
