# Mutant: train_step is a plain function around a jit that donates the batch as well as the
# state (so the check cannot only lower it: it must run it).
# says: the batch is donated as well as the state
from typing import NamedTuple

import jax
import jax.numpy as jnp


class TrainState(NamedTuple):
    step: jax.Array
    params: dict
    opt_state: dict
    key: jax.Array


def create_train_state(key):
    k_w, k_train = jax.random.split(key)
    params = {"w1": jax.random.normal(k_w, (1, 32)), "b1": jnp.zeros(32), "w2": jnp.zeros((32, 1)), "b2": jnp.zeros(1)}
    return TrainState(jnp.zeros((), jnp.int32), params, jax.tree.map(jnp.zeros_like, params), k_train)


def loss_of(params, x, y):
    return jnp.mean((jnp.tanh(x @ params["w1"] + params["b1"]) @ params["w2"] + params["b2"] - y) ** 2)


def _step(state, batch):
    x, y = batch
    key, sub = jax.random.split(state.key)
    noisy = x + 0.01 * jax.random.normal(sub, x.shape)
    loss, grads = jax.value_and_grad(loss_of)(state.params, noisy, y)
    velocity = jax.tree.map(lambda v, g: 0.9 * v + g, state.opt_state, grads)
    params = jax.tree.map(lambda p, v: p - 0.05 * v, state.params, velocity)
    return TrainState(state.step + 1, params, velocity, key), loss


_jitted = jax.jit(_step, donate_argnums=(0, 1))


def train_step(state, batch):
    return _jitted(state, batch)
