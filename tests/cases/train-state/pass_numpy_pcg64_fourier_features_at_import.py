"""A fixed random-feature layer drawn once at import from `Generator(PCG64(0))` (a constant of the
model, like an architecture choice), and a validation set from `RandomState(3)`, also at import;
every draw inside the step follows state.key. The state is a registered dataclass."""

from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

FEATURES = np.random.Generator(np.random.PCG64(0)).normal(size=(1, 16)).astype(np.float32)
VALID_X = np.random.RandomState(3).uniform(-3, 3, (16, 1)).astype(np.float32)


@partial(jax.tree_util.register_dataclass, data_fields=["step", "params", "opt_state", "key"], meta_fields=[])
@dataclass
class TrainState:
    step: jax.Array
    params: dict
    opt_state: dict
    key: jax.Array


def create_train_state(key):
    k_train, k_w = jax.random.split(key)
    params = {"w": 0.1 * jax.random.normal(k_w, (32, 1)), "b": jnp.zeros(1)}
    return TrainState(jnp.array(0, jnp.int32), params, jax.tree.map(jnp.zeros_like, params), k_train)


def predict(params, x):
    z = x @ jnp.asarray(FEATURES)
    return jnp.concatenate([jnp.sin(z), jnp.cos(z)], axis=1) @ params["w"] + params["b"]


def mse(params, x, y):
    return jnp.mean((predict(params, x) - y) ** 2)


def validation_loss(params):
    return mse(params, VALID_X, np.sin(VALID_X))


@partial(jax.jit, donate_argnums=0)
def train_step(state, batch):
    x, y = batch
    k_next, k_rows = jax.random.split(state.key)
    rows = jax.random.randint(k_rows, (64,), 0, x.shape[0])
    loss, grads = jax.value_and_grad(mse)(state.params, x[rows], y[rows])
    velocity = jax.tree.map(lambda v, g: 0.9 * v + g, state.opt_state, grads)
    params = jax.tree.map(lambda p, v: p - 0.05 * v, state.params, velocity)
    return TrainState(state.step + 1, params, velocity, k_next), loss
