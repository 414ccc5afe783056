"""Rows follow the key, but the input noise comes from `Generator(PCG64(7))` made inside the step:
the same noise at every step and under every key (NumPy's generator classes are C types; the seed
given to PCG64 is what repeats)."""
# says: numpy.random.PCG64(seed)

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
    key, k_rows = jax.random.split(state.key)
    rows = jax.random.choice(k_rows, x.shape[0], (32,), replace=False)
    rng = np.random.Generator(np.random.PCG64(7))
    noise = jnp.asarray(0.01 * rng.standard_normal((32, 1)), jnp.float32)
    loss, grads = jax.value_and_grad(mse)(state.params, x[rows] + noise, y[rows])
    velocity = jax.tree.map(lambda v, g: 0.9 * v + g, state.opt_state, grads)
    params = jax.tree.map(lambda p, v: p - 0.05 * v, state.params, velocity)
    return TrainState(state.step + 1, params, velocity, key), loss
