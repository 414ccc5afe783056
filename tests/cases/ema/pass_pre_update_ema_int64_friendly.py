"""The EMA of the params before the update, computed first; the step incremented by jnp.add with a
Python 1 (weak type: the step keeps its dtype past 2**24 and under x64)."""

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class TrainState(NamedTuple):
    step: Any
    params: Any
    ema_params: Any


def ema_train_step(state, x, y, lr, decay):
    return _step(state, x, y, lr, decay)


@jax.jit
def _step(state, x, y, lr, decay):
    ema = jax.tree.map(lambda e, p: decay * e + (1.0 - decay) * p, state.ema_params, state.params)
    loss = lambda p: jnp.mean(jnp.square(p["w"] * x + p["b"] - y))  # noqa: E731
    _, grads = jax.value_and_grad(loss)(state.params)
    params = jax.tree.map(lambda p, g: p - lr * g, state.params, grads)
    return state._replace(step=jnp.add(state.step, 1), params=params, ema_params=ema)


ema_train_step = jax.jit(ema_train_step)
