"""A 'stable' RMSProp: each leaf's update is scaled down where its largest entry would move a
parameter by more than 5 x lr. RMSProp's usual steps stay well below that."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Opt(NamedTuple):
    init: object
    update: object


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return (jax.tree.map(jnp.zeros_like, params),)

    def update(grads, state, params=None):
        (s,) = state
        s = jax.tree.map(lambda a, g: rho * a + (1.0 - rho) * jnp.square(g), s, grads)

        def step(g, a):
            u = -lr * g / (jnp.sqrt(a) + eps)
            return u * jnp.minimum(1.0, 5.0 * lr / jnp.maximum(jnp.max(jnp.abs(u)), 1e-30))

        return jax.tree.map(step, grads, s), (s,)

    return Opt(init, update)
