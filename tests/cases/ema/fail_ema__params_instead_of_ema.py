from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class TrainState(NamedTuple):
    step: Any
    params: Any
    ema_params: Any


@jax.jit
def ema_train_step(state, x, y, lr, decay):
    grads = jax.grad(lambda p: jnp.mean((p["w"] * x + p["b"] - y) ** 2))(state.params)
    params = jax.tree.map(lambda p, g: p - lr * g, state.params, grads)
    ema = jax.tree.map(lambda e, p: decay * p + (1 - decay) * p, state.ema_params, params)   # typo: p for e
    return TrainState(state.step + 1, params, ema)
