import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class TrainState:
    step: jax.Array
    params: dict
    ema_params: dict


jax.tree_util.register_dataclass(TrainState, data_fields=["step", "params", "ema_params"], meta_fields=[])


def _loss(params, x, y):
    err = params["w"] * x + params["b"] - y
    return jnp.mean(err * err)


@partial(jax.jit, donate_argnames="state")
def ema_train_step(state, x, y, lr, decay):
    grads = jax.grad(_loss)(state.params, x, y)
    params = {k: v - lr * grads[k] for k, v in state.params.items()}
    ema = jax.tree.map(lambda e, p: jnp.asarray(decay, e.dtype) * e + (1 - jnp.asarray(decay, e.dtype)) * p,
                       state.ema_params, params)
    return TrainState(step=state.step + 1, params=params, ema_params=ema)
