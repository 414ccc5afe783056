"""Adam whose update is rescaled where it would move a parameter by more than 2 x lr, a
per-leaf max-norm cap: the identity on ordinary gradients, where Adam moves by about lr."""

import jax
import jax.numpy as jnp


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        return (jnp.array(0), jax.tree.map(jnp.zeros_like, params), jax.tree.map(jnp.zeros_like, params))

    def update(grads, state, params=None):
        count, m, v = state
        count = count + 1
        m = jax.tree.map(lambda a, g: b1 * a + (1 - b1) * g, m, grads)
        v = jax.tree.map(lambda a, g: b2 * a + (1 - b2) * g * g, v, grads)

        def capped(a, b):
            u = -lr * a / (1 - b1**count) / (jnp.sqrt(b / (1 - b2**count)) + eps)
            biggest = jnp.max(jnp.abs(u))
            return u * jnp.minimum(1.0, 2.0 * lr / jnp.maximum(biggest, 1e-30))

        return jax.tree.map(capped, m, v), (count, m, v)

    return init, update


def apply_updates(params, updates):
    return jax.tree.map(jnp.add, params, updates)
