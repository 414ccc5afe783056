import dataclasses
import functools

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class TrainState:
    step: jax.Array
    params: dict
    opt_state: dict
    key: jax.Array


def create_train_state(key):
    key, k_w1, k_w2 = jax.random.split(key, 3)
    params = [
        {"w": jax.random.normal(k_w1, (1, 64)) * 1.5, "b": jnp.zeros(64)},
        {"w": jax.random.normal(k_w2, (64, 1)) * 0.1, "b": jnp.zeros(1)},
    ]
    return TrainState(step=jnp.array(0, jnp.int32), params=params,
                      opt_state={"velocity": jax.tree.map(jnp.zeros_like, params)}, key=key)


def forward(params, x, drop_key, rate=0.1):
    h = jnp.tanh(x @ params[0]["w"] + params[0]["b"])
    keep = jax.random.bernoulli(drop_key, 1.0 - rate, h.shape)
    h = jnp.where(keep, h / (1.0 - rate), 0.0)
    return h @ params[1]["w"] + params[1]["b"]


def train_step(state, batch):
    x, y = batch
    next_key, drop_key = jax.random.split(state.key)
    loss_fn = lambda p: jnp.mean((forward(p, x, drop_key) - y) ** 2)
    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    vel = jax.tree.map(lambda v, g: 0.9 * v + g, state.opt_state["velocity"], grads)
    params = jax.tree.map(lambda p, v: p - 0.02 * v, state.params, vel)
    new = TrainState(step=state.step + 1, params=params, opt_state={"velocity": vel}, key=next_key)
    return new, loss


train_step = jax.jit(train_step, donate_argnums=(0,))
