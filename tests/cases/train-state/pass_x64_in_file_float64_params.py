import jax

jax.config.update("jax_enable_x64", True)  # as JAX_ENABLE_X64=1 in the shell: the checks keep it

from functools import partial  # noqa: E402
from typing import NamedTuple  # noqa: E402

import jax.numpy as jnp  # noqa: E402


class TrainState(NamedTuple):
    step: jax.Array  # int64 here: jnp.array(0) under x64
    params: dict  # float64: default dtypes under x64
    opt_state: dict
    key: jax.Array


def create_train_state(key):
    k1, k2, k_train = jax.random.split(key, 3)
    params = {
        "w1": jax.random.normal(k1, (1, 32)),
        "b1": jnp.zeros(32),
        "w2": jax.random.normal(k2, (32, 1)) / jnp.sqrt(32.0),
        "b2": jnp.zeros(1),
    }
    return TrainState(jnp.array(0), params, jax.tree.map(jnp.zeros_like, params), k_train)


def mse(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    return jnp.mean((hidden @ params["w2"] + params["b2"] - y) ** 2)


@partial(jax.jit, donate_argnums=0)
def train_step(state, batch):
    x, y = batch
    key, sub = jax.random.split(state.key)
    idx = jax.random.randint(sub, (32,), 0, x.shape[0])
    loss, grads = jax.value_and_grad(mse)(state.params, x[idx], y[idx])
    velocity = jax.tree.map(lambda v, g: 0.9 * v + g, state.opt_state, grads)
    params = jax.tree.map(lambda p, v: p - 0.05 * v, state.params, velocity)
    return TrainState(state.step + 1, params, velocity, key), loss
