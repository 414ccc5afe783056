"""Adam with a hand-registered PyTree class, pre-jitted with functools.partial, and a demo block."""

from __future__ import annotations

import functools
import operator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np


@jax.tree_util.register_pytree_node_class
class AdamState:
    def __init__(self, count, mu, nu):
        self.count, self.mu, self.nu = count, mu, nu

    def tree_flatten(self):
        return (self.count, self.mu, self.nu), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


class Optimizer:
    """Not a NamedTuple: just an object with init and update attributes."""

    def __init__(self, init, update):
        self.init = init
        self.update = update


def _zeros(tree: Any) -> Any:
    return jax.tree.map(lambda p: jnp.zeros(jnp.shape(p), jnp.result_type(p)), tree)


def adam(lr: float, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8) -> Optimizer:
    def init(params):
        return AdamState(jnp.int32(0), _zeros(params), _zeros(params))

    @functools.partial(jax.jit, static_argnums=())
    def update(grads, state: AdamState, params=None):
        count = state.count + 1
        t = count.astype(jnp.float32)
        mu = jax.tree.map(lambda m, g: b1 * m + (1.0 - b1) * g, state.mu, grads)
        nu = jax.tree.map(lambda v, g: b2 * v + (1.0 - b2) * lax_square(g), state.nu, grads)
        bc1 = 1.0 - jnp.power(jnp.float32(b1), t)
        bc2 = 1.0 - jnp.power(jnp.float32(b2), t)
        updates = jax.tree.map(lambda m, v: -lr * (m / bc1) / (jnp.sqrt(v / bc2) + eps), mu, nu)
        return updates, AdamState(count, mu, nu)

    return Optimizer(init, update)


def lax_square(x):
    return jax.lax.integer_pow(x, 2)


def apply_updates(params, updates):
    return jax.tree.map(operator.add, params, updates)


if __name__ == "__main__":
    opt = adam(0.1)
    p = {"w": jnp.ones(3)}
    s = opt.init(p)
    for _ in range(3):
        g = jax.grad(lambda q: jnp.sum(q["w"] ** 2))(p)
        u, s = opt.update(g, s, p)
        p = apply_updates(p, u)
    print("demo params", np.asarray(p["w"]))
