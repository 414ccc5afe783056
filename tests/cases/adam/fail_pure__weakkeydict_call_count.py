# says: _CALLS
# Wrong: a WeakKeyDictionary keyed by the update function counts its calls.
import weakref

import jax
import jax.numpy as jnp

_CALLS = weakref.WeakKeyDictionary()


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        return (jnp.zeros([], jnp.int32), jax.tree.map(jnp.zeros_like, params), jax.tree.map(jnp.zeros_like, params))

    def update(grads, state, params=None):
        _CALLS[update] = _CALLS.get(update, 0) + 1
        count, m, v = state
        t = count + 1
        m = jax.tree.map(lambda a, g: b1 * a + (1 - b1) * g, m, grads)
        v = jax.tree.map(lambda a, g: b2 * a + (1 - b2) * g * g, v, grads)
        step = lr * jnp.sqrt(1 - b2**t) / (1 - b1**t)
        ups = jax.tree.map(lambda a, b: -lr * (a / (1 - b1**t)) / (jnp.sqrt(b / (1 - b2**t)) + eps), m, v)
        del step
        return ups, (t, m, v)

    return init, update


def apply_updates(params, updates):
    return jax.tree.map(jnp.add, params, updates)
