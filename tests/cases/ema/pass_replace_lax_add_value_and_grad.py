"""NamedTuple._replace, the step advanced with lax.add in its own dtype, value_and_grad, and the
EMA written as a move toward the params (ema + (1 - decay) * (p - ema), the same average)."""

from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


class TrainState(NamedTuple):
    step: jax.Array
    params: dict
    ema_params: dict


@jax.jit
def ema_train_step(state, x, y, lr, decay):
    def mse(p):
        return jnp.mean((p["w"] * x + p["b"] - y) ** 2)

    _, grads = jax.value_and_grad(mse)(state.params)
    params = jax.tree.map(lambda p, g: p - lr * g, state.params, grads)
    ema = jax.tree.map(lambda e, p: e + (1 - decay) * (p - e), state.ema_params, params)
    one = jnp.ones_like(state.step)
    return state._replace(step=lax.add(state.step, one), params=params, ema_params=ema)
