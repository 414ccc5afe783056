import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.tree_util.register_dataclass, data_fields=["step", "params", "opt_state", "key"], meta_fields=[])
@dataclasses.dataclass(frozen=True)
class TrainState:
    step: jax.Array
    params: tuple
    opt_state: tuple
    key: jax.Array


def create_train_state(key: jax.Array) -> TrainState:
    """step as a plain Python int: weak int32, stays weak under jit (no retrace)."""
    keys = jax.random.split(key, 4)
    w1 = jax.random.normal(keys[0], (1, 32))
    b1 = jax.random.uniform(keys[1], (32,), minval=-1.0, maxval=1.0)
    w2 = jax.random.normal(keys[2], (32, 1)) * 0.1
    b2 = jnp.zeros((1,))
    params = (w1, b1, w2, b2)
    return TrainState(step=0, params=params, opt_state=tuple(jnp.zeros_like(p) for p in params), key=keys[3])


def predict(params, x):
    w1, b1, w2, b2 = params
    return jnp.tanh(x @ w1 + b1) @ w2 + b2


def _step(state, batch, lr=0.05, mu=0.9):
    x, y = batch
    new_key, noise_key = jax.random.split(state.key)
    x = x + 0.02 * jax.random.normal(noise_key, x.shape)
    loss, grads = jax.value_and_grad(lambda p: jnp.mean(jnp.square(predict(p, x) - y)))(state.params)
    vel = tuple(mu * v + g for v, g in zip(state.opt_state, grads))
    params = tuple(p - lr * v for p, v in zip(state.params, vel))
    return dataclasses.replace(state, step=state.step + 1, params=params, opt_state=vel, key=new_key), loss


train_step = jax.jit(_step, donate_argnums=0)
