"""The minibatch follows the key, but the dropout mask comes from a NumPy generator seeded inside
the step: the same units are dropped at every step, whatever the key. Re-tracing draws the same
mask, and no key of JAX's is involved for the key checks to follow."""
# says: does not follow state.key

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
    k1, k2, k_train = jax.random.split(key, 3)
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
def train_step(state, batch):
    x, y = batch
    key, sub = jax.random.split(state.key)
    idx = jax.random.randint(sub, (32,), 0, x.shape[0])
    rng = np.random.default_rng(1234)
    keep = jnp.asarray(rng.random((32, 32)) < 0.9, jnp.float32)
    loss, grads = jax.value_and_grad(loss_fn)(state.params, x[idx], y[idx], keep)
    velocity = jax.tree.map(lambda v, g: 0.9 * v + g, state.opt_state, grads)
    params = jax.tree.map(lambda p, v: p - 0.05 * v, state.params, velocity)
    return TrainState(state.step + 1, params, velocity, key), loss
