# says: threading.current_thread().adam_calls
# Wrong: the step count is right in the state, but a tally of calls is kept on the running thread's
# Thread object. The thread is threading's, not this module's, and it keeps the tally between calls
# as a global would (and another thread would keep another one).
import threading

import jax
import jax.numpy as jnp


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        zeros = lambda: jax.tree.map(jnp.zeros_like, params)  # noqa: E731
        return {"count": jnp.zeros((), jnp.int32), "m": zeros(), "v": zeros()}

    def update(grads, state, params=None):
        me = threading.current_thread()
        me.adam_calls = getattr(me, "adam_calls", 0) + 1
        t = state["count"] + 1
        m = jax.tree.map(lambda m_, g: b1 * m_ + (1 - b1) * g, state["m"], grads)
        v = jax.tree.map(lambda v_, g: b2 * v_ + (1 - b2) * g * g, state["v"], grads)
        step = lambda m_, v_: -lr * (m_ / (1 - b1**t)) / (jnp.sqrt(v_ / (1 - b2**t)) + eps)  # noqa: E731
        return jax.tree.map(step, m, v), {"count": t, "m": m, "v": v}

    return init, update


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)
