from functools import partial
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class TrainState(NamedTuple):
    step: Any
    params: Any
    ema_params: Any


@partial(jax.jit, static_argnums=(4,))
def ema_train_step(state, x, y, lr, decay):
    grads = jax.grad(lambda p: jnp.mean((p["w"] * x + p["b"] - y) ** 2))(state.params)
    params = jax.tree.map(lambda p, g: p - lr * g, state.params, grads)
    ema = jax.tree.map(lambda e, p: decay * e + (1 - decay) * p, state.ema_params, params)
    return TrainState(state.step + 1, params, ema)
