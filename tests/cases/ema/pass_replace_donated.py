from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class TrainState(NamedTuple):
    step: jnp.ndarray
    params: dict
    ema_params: dict


def mse(params, x, y):
    return jnp.mean((params["w"] * x + params["b"] - y) ** 2)


@partial(jax.jit, donate_argnums=0)
def ema_train_step(state, x, y, lr, decay):
    _, grads = jax.value_and_grad(mse)(state.params, x, y)
    new_params = jax.tree_util.tree_map(lambda p, g: p - lr * g, state.params, grads)
    new_ema = jax.tree_util.tree_map(lambda e, p: e + (1 - decay) * (p - e), state.ema_params, new_params)
    return state._replace(step=state.step + 1, params=new_params, ema_params=new_ema)
