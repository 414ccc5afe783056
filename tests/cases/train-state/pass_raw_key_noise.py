from typing import NamedTuple

import jax
import jax.numpy as jnp


class TrainState(NamedTuple):
    step: jax.Array
    params: tuple
    opt_state: tuple
    key: jax.Array


def create_train_state(key):
    # store the key as raw uint32 data: the old PRNGKey style also works
    raw = jax.random.key_data(jax.random.fold_in(key, 0))
    k1, k2 = jax.random.split(jax.random.fold_in(key, 1))
    w1 = jax.random.uniform(k1, (1, 32), minval=-2.0, maxval=2.0)
    b1 = jax.random.uniform(k2, (32,), minval=-2.0, maxval=2.0)
    w2 = jnp.zeros((32, 1))
    b2 = jnp.zeros((1,))
    params = (w1, b1, w2, b2)
    return TrainState(jnp.int32(0), params, tuple(jnp.zeros_like(p) for p in params), raw)


def _loss(params, x, y):
    w1, b1, w2, b2 = params
    return jnp.mean((jnp.tanh(x @ w1 + b1) @ w2 + b2 - y) ** 2)


def _step(state, batch):
    x, y = batch
    keys = jax.random.split(state.key, 2)           # raw keys split into raw keys
    noisy_x = x + 0.05 * jax.random.normal(keys[1], x.shape)
    loss, grads = jax.value_and_grad(_loss)(state.params, noisy_x, y)
    velocity = tuple(0.8 * v + g for v, g in zip(state.opt_state, grads))
    params = tuple(p - 0.1 * v for p, v in zip(state.params, velocity))
    return state._replace(step=state.step + 1, params=params, opt_state=velocity, key=keys[0]), loss


train_step = jax.jit(_step, donate_argnames="state")
