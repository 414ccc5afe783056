# Mutant: a learning-rate decay driven by a module-level NumPy counter of calls, bumped in place
# on every call. Run as plain Python, the same first step gives a smaller update after five more
# calls: the counter is a history outside the state (a trace sees its value only once).
# says: gave other updates after 5 earlier calls
import jax
import jax.numpy as jnp
import numpy as np

CALLS = np.zeros((), np.float32)


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return {"count": jnp.zeros((), jnp.int32), "m": zeros, "v": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        np.add(CALLS, 1, out=CALLS)
        decay = 1.0 / (1.0 + 0.1 * jnp.asarray(CALLS))
        t = state["count"] + 1
        m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads)
        v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, state["v"], grads)
        step = jax.tree.map(lambda m, v: -lr * decay * (m / (1 - b1**t)) / (jnp.sqrt(v / (1 - b2**t)) + eps), m, v)
        return step, {"count": t, "m": m, "v": v}

    return init, update


def apply_updates(params, updates):
    return jax.tree.map(jnp.add, params, updates)
