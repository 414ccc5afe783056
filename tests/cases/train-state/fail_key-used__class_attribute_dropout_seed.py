"""Dropout whose key comes from a seed kept as a class attribute and bumped each call, 'so every
step gets new randomness': the key does not follow state.key, and under jit the bump happens once."""
# says: counter kept outside JAX

from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class TrainState(NamedTuple):
    step: jax.Array
    params: dict
    opt_state: dict
    key: jax.Array


class Seeds:
    next_seed = 100


def create_train_state(key):
    k1, k2, k3 = jax.random.split(key, 3)
    params = {
        "w1": jax.random.normal(k1, (1, 32)),
        "b1": jnp.zeros(32),
        "w2": jax.random.normal(k2, (32, 1)) / jnp.sqrt(32.0),
        "b2": jnp.zeros(1),
    }
    return TrainState(jnp.zeros((), jnp.int32), params, jax.tree.map(jnp.zeros_like, params), k3)


def loss_fn(params, x, y, drop_key):
    h = jnp.tanh(x @ params["w1"] + params["b1"])
    keep = jax.random.bernoulli(drop_key, 0.9, h.shape)
    h = jnp.where(keep, h / 0.9, 0.0)
    return jnp.mean((h @ params["w2"] + params["b2"] - y) ** 2)


@partial(jax.jit, donate_argnums=0)
def train_step(state, batch):
    x, y = batch
    Seeds.next_seed += 1
    drop_key = jax.random.key(Seeds.next_seed)
    new_key = jax.random.split(state.key)[0]
    loss, grads = jax.value_and_grad(loss_fn)(state.params, x, y, drop_key)
    velocity = jax.tree.map(lambda v, g: 0.9 * v + g, state.opt_state, grads)
    params = jax.tree.map(lambda p, v: p - 0.05 * v, state.params, velocity)
    return TrainState(state.step + 1, params, velocity, new_key), loss
