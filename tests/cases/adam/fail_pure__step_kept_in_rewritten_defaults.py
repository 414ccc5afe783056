# says: update.__defaults__
# Wrong: the step number rides in a default argument that update rewrites after each call
# (`update.__defaults__ = ...`). No default is mutated in place and no global is rebound, but the
# function object itself remembers past calls.
import jax
import jax.numpy as jnp


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        zeros = lambda: jax.tree.map(jnp.zeros_like, params)  # noqa: E731
        return {"count": jnp.zeros((), jnp.int32), "m": zeros(), "v": zeros()}

    def update(grads, state, params=None, _calls=0):
        update.__defaults__ = (None, _calls + 1)
        t = state["count"] + 1
        m = jax.tree.map(lambda m_, g: b1 * m_ + (1 - b1) * g, state["m"], grads)
        v = jax.tree.map(lambda v_, g: b2 * v_ + (1 - b2) * g * g, state["v"], grads)
        step = lambda m_, v_: -lr * (m_ / (1 - b1**t)) / (jnp.sqrt(v_ / (1 - b2**t)) + eps)  # noqa: E731
        return jax.tree.map(step, m, v), {"count": t, "m": m, "v": v}

    return init, update


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)
