"""An index table shuffled once at import by `np.random.RandomState(0)` (a fixed order of the
dataset), from which the step takes a window at a position drawn from state.key: the rows follow
the key, the table is a constant. Key split in the other order (sub first)."""

from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

ORDER = np.random.RandomState(0).permutation(128)


class TrainState(NamedTuple):
    step: jax.Array
    params: dict
    opt_state: dict
    key: jax.Array


def create_train_state(key):
    k_params, k_state = jax.random.split(key)
    k1, k2 = jax.random.split(k_params)
    params = [
        (jax.random.normal(k1, (1, 32)), jnp.zeros(32)),
        (jax.random.normal(k2, (32, 1)) / jnp.sqrt(32.0), jnp.zeros(1)),
    ]
    return TrainState(jnp.zeros((), jnp.int32), params, jax.tree.map(jnp.zeros_like, params), k_state)


def mse(params, x, y):
    (w1, b1), (w2, b2) = params
    return jnp.mean((jnp.tanh(x @ w1 + b1) @ w2 + b2 - y) ** 2)


@partial(jax.jit, donate_argnums=0)
def train_step(state, batch):
    x, y = batch
    sub, key = jax.random.split(state.key)
    start = jax.random.randint(sub, (), 0, x.shape[0] - 32)
    rows = jax.lax.dynamic_slice(jnp.asarray(ORDER), (start,), (32,))
    loss, grads = jax.value_and_grad(mse)(state.params, x[rows], y[rows])
    velocity = jax.tree.map(lambda v, g: 0.9 * v + g, state.opt_state, grads)
    params = jax.tree.map(lambda p, v: p - 0.05 * v, state.params, velocity)
    return TrainState(state.step + 1, params, velocity, key), loss
