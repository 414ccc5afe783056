"""The minibatch comes from a NumPy RandomState seeded inside the step; only the input noise follows
the key. Under jit the permutation is drawn once, while tracing, and a re-trace draws the same one:
every step trains on the same 32 rows, whatever the key."""
# says: numpy.random.RandomState(seed)

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


def mse(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    return jnp.mean((hidden @ params["w2"] + params["b2"] - y) ** 2)


@partial(jax.jit, donate_argnums=0)
def train_step(state, batch):
    x, y = batch
    key, k_noise = jax.random.split(state.key)
    rows = np.random.RandomState(0).permutation(x.shape[0])[:32]
    noise = 0.01 * jax.random.normal(k_noise, (32, 1))
    loss, grads = jax.value_and_grad(mse)(state.params, x[rows] + noise, y[rows])
    velocity = jax.tree.map(lambda v, g: 0.9 * v + g, state.opt_state, grads)
    params = jax.tree.map(lambda p, v: p - 0.05 * v, state.params, velocity)
    return TrainState(state.step + 1, params, velocity, key), loss
