"""Makes a seeded random.Random inside the step and draws the minibatch from it (a generator of its
own, nothing global touched): every trace (and, under jit, every step) trains on the same 32 rows
whatever the key. The key only adds input noise,
so changing it still changes the step, and a second trace draws the same rows again."""
# says: does not follow state.key

import random
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


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


def mse(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    return jnp.mean((hidden @ params["w2"] + params["b2"] - y) ** 2)


@partial(jax.jit, donate_argnums=0)
def train_step(state, batch):
    x, y = batch
    key, sub = jax.random.split(state.key)
    rng = random.Random(1234)  # "reproducible", and nothing global touched
    idx = jnp.array(rng.sample(range(x.shape[0]), 32))
    noisy = x[idx] + 0.01 * jax.random.normal(sub, x[idx].shape)
    loss, grads = jax.value_and_grad(mse)(state.params, noisy, y[idx])
    velocity = jax.tree.map(lambda v, g: 0.9 * v + g, state.opt_state, grads)
    params = jax.tree.map(lambda p, v: p - 0.05 * v, state.params, velocity)
    return TrainState(state.step + 1, params, velocity, key), loss
