"""A Python wrapper picks the rows with a NumPy Philox generator keyed by a constant (`key=123`,
not a seed argument), then calls a jitted step that uses state.key for dropout only: every call
trains on the same rows."""
# says: numpy.random.Philox(seed)

from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class TrainState(NamedTuple):
    step: jax.Array
    params: dict
    opt_state: dict
    key: jax.Array


def create_train_state(key):
    k_init, k_train = jax.random.split(key)
    k1, k2 = jax.random.split(k_init)
    params = {
        "w1": jax.random.normal(k1, (1, 32)),
        "b1": jnp.zeros(32),
        "w2": jax.random.normal(k2, (32, 1)) / jnp.sqrt(32.0),
        "b2": jnp.zeros(1),
    }
    return TrainState(jnp.zeros((), jnp.int32), params, jax.tree.map(jnp.zeros_like, params), k_train)


def loss_fn(params, x, y, keep):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"]) * keep / 0.9
    return jnp.mean((hidden @ params["w2"] + params["b2"] - y) ** 2)


@partial(jax.jit, donate_argnums=0)
def _step(state, x, y):
    key, k_drop = jax.random.split(state.key)
    keep = jax.random.bernoulli(k_drop, 0.9, (x.shape[0], 32)).astype(jnp.float32)
    loss, grads = jax.value_and_grad(loss_fn)(state.params, x, y, keep)
    velocity = jax.tree.map(lambda v, g: 0.9 * v + g, state.opt_state, grads)
    params = jax.tree.map(lambda p, v: p - 0.05 * v, state.params, velocity)
    return TrainState(state.step + 1, params, velocity, key), loss


def train_step(state, batch):
    x, y = batch
    rows = np.random.Generator(np.random.Philox(key=123)).choice(x.shape[0], 32, replace=False)
    return _step(state, x[rows], y[rows])
