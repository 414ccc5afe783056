# prints from inside the jitted step at every call (jax.debug.print) and a module-level demo run
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Momentum(NamedTuple):
    velocity: dict


class TrainState(NamedTuple):
    step: jax.Array
    params: dict
    opt_state: Momentum
    key: jax.Array


def create_train_state(key):
    k1, k2, k3 = jax.random.split(key, 3)
    params = {"w1": jax.random.normal(k1, (1, 32)), "b1": jnp.zeros(32),
              "w2": jax.random.normal(k2, (32, 1)) * 0.2, "b2": jnp.zeros(1)}
    return TrainState(jnp.int32(0), params, Momentum(jax.tree.map(jnp.zeros_like, params)), k3)


def loss_fn(params, x, y, drop_key):
    h = jnp.tanh(x @ params["w1"] + params["b1"])
    mask = jax.random.bernoulli(drop_key, 0.9, h.shape) / 0.9
    return jnp.mean(((h * mask) @ params["w2"] + params["b2"] - y) ** 2)


@partial(jax.jit, donate_argnums=(0,))
def train_step(state, batch):
    x, y = batch
    key, k_batch, k_drop = jax.random.split(state.key, 3)
    idx = jax.random.choice(k_batch, x.shape[0], (48,), replace=False)
    loss, grads = jax.value_and_grad(loss_fn)(state.params, x[idx], y[idx], k_drop)
    v = jax.tree.map(lambda v, g: 0.9 * v + g, state.opt_state.velocity, grads)
    params = jax.tree.map(lambda p, v: p - 0.03 * v, state.params, v)
    jax.debug.print("step {s}: loss {l}", s=state.step, l=loss)
    return TrainState(state.step + 1, params, Momentum(v), key), loss


# a small demo at import time: it must not disturb the checks
_x = jnp.linspace(-3, 3, 128)[:, None]
_s = create_train_state(jax.random.key(123))
for _ in range(3):
    _s, _l = train_step(_s, (_x, jnp.sin(_x)))
print("demo loss", float(_l))
