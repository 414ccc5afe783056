"""Clean: a Flax-like Dense module registered as a PyTree, an Optax-like optimizer written by
hand (init / update), a donated train state rebound at once, dropout keys from fold_in."""
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


@jax.tree_util.register_pytree_node_class
class Dense:
    def __init__(self, w, b):
        self.w = w
        self.b = b

    @classmethod
    def create(cls, key, n_in, n_out):
        return cls(jax.random.normal(key, (n_in, n_out)) / np.sqrt(n_in), jnp.zeros(n_out))

    def __call__(self, x):
        return x @ self.w + self.b

    def tree_flatten(self):
        return (self.w, self.b), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


class Optimizer(NamedTuple):
    init: Any
    update: Any


def momentum(lr, mu=0.9):
    def init(params):
        return jax.tree.map(jnp.zeros_like, params)

    def update(grads, velocity):
        velocity = jax.tree.map(lambda v, g: mu * v + g, velocity, grads)
        return jax.tree.map(lambda v: -lr * v, velocity), velocity

    return Optimizer(init, update)


class TrainState(NamedTuple):
    step: jax.Array
    layers: list
    opt_state: Any


def forward(layers, x, key):
    h = jnp.tanh(layers[0](x))
    keep = jax.random.bernoulli(key, 0.9, h.shape)
    return layers[1](jnp.where(keep, h / 0.9, 0.0))


opt = momentum(0.05)


def train_step(state, x, y, base_key):
    key = jax.random.fold_in(base_key, state.step)

    def loss_fn(layers):
        return jnp.mean((forward(layers, x, key) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.layers)
    updates, opt_state = opt.update(grads, state.opt_state)
    layers = jax.tree.map(lambda p, u: p + u, state.layers, updates)
    return TrainState(state.step + 1, layers, opt_state), loss


train_step = jax.jit(train_step, donate_argnums=0)

k1, k2, base_key = jax.random.split(jax.random.key(7), 3)
layers = [Dense.create(k1, 3, 32), Dense.create(k2, 32, 1)]
state = TrainState(jnp.int32(0), layers, opt.init(layers))
x = np.random.default_rng(7).normal(size=(64, 3)).astype(np.float32)
y = np.sum(x ** 2, axis=1, keepdims=True)
losses = []
for i in range(201):
    state, loss = train_step(state, x, y, base_key)
    losses.append(loss)
    if i % 100 == 0:
        print(f"step {i}: loss {float(loss):.3f}")
print("mean of the last 10 losses:", np.mean([float(v) for v in losses[-10:]]))
