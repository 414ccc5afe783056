# Mutant: a debug callback records every step in a module-level list, and the learning rate
# decays with the number of steps recorded so far. Run as plain Python, the callback runs on
# every call, so the same first step is smaller after five calls: a history outside the state.
# says: gave other updates after 5 earlier calls
import jax
import jax.numpy as jnp

SEEN = []


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        return jnp.zeros((), jnp.int32), jax.tree.map(jnp.zeros_like, params), jax.tree.map(jnp.zeros_like, params)

    def update(grads, state, params=None):
        count, m, v = state
        jax.debug.callback(lambda c: SEEN.append(int(c)), count)
        rate = lr / (1 + 0.1 * len(SEEN))
        t = count + 1
        m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, m, grads)
        v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, v, grads)
        step = jax.tree.map(lambda m, v: -rate * (m / (1 - b1**t)) / (jnp.sqrt(v / (1 - b2**t)) + eps), m, v)
        return step, (t, m, v)

    return init, update


def apply_updates(params, updates):
    return jax.tree.map(jnp.add, params, updates)
