# plain SGD with a decaying learning rate: the optimizer state is only a step counter
from typing import NamedTuple

import jax
import jax.numpy as jnp


class TrainState(NamedTuple):
    step: jax.Array
    params: dict
    opt_state: dict
    key: jax.Array


def create_train_state(key):
    k_init, k_train = jax.random.split(key)
    k1, k2 = jax.random.split(k_init)
    params = {"w1": jax.random.normal(k1, (1, 32)), "b1": jnp.zeros(32),
              "w2": jax.random.normal(k2, (32, 1)) / 32 ** 0.5, "b2": jnp.zeros(1)}
    return TrainState(jnp.zeros((), jnp.int32), params, {"count": jnp.zeros((), jnp.int32)}, k_train)


def loss_fn(p, x, y):
    return jnp.mean((jnp.tanh(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"] - y) ** 2)


def train_step(state, batch):
    x, y = batch
    key, sub = jax.random.split(state.key)
    idx = jax.random.randint(sub, (32,), 0, x.shape[0])
    loss, g = jax.value_and_grad(loss_fn)(state.params, x[idx], y[idx])
    lr = 0.03 / (1.0 + 0.002 * state.opt_state["count"])
    params = jax.tree.map(lambda p, g: p - lr * g, state.params, g)
    return TrainState(state.step + 1, params, {"count": state.opt_state["count"] + 1}, key), loss


train_step = jax.jit(train_step, donate_argnums=0)
