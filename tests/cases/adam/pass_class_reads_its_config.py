# Correct: an optimizer object whose bound methods read (never write) its hyperparameters.
import jax
import jax.numpy as jnp


class Adam:
    def __init__(self, lr, b1, b2, eps):
        self.config = {"lr": lr, "b1": b1, "b2": b2, "eps": eps}

    def init(self, params):
        return {"t": jnp.zeros((), jnp.int32), "m": jax.tree.map(jnp.zeros_like, params), "v": jax.tree.map(jnp.zeros_like, params)}

    def update(self, grads, state, params=None):
        c = self.config
        t = state["t"] + 1
        m = jax.tree.map(lambda m, g: c["b1"] * m + (1 - c["b1"]) * g, state["m"], grads)
        v = jax.tree.map(lambda v, g: c["b2"] * v + (1 - c["b2"]) * jnp.square(g), state["v"], grads)
        mhat_scale, vhat_scale = 1 / (1 - c["b1"] ** t), 1 / (1 - c["b2"] ** t)
        updates = jax.tree.map(lambda m, v: -c["lr"] * m * mhat_scale / (jnp.sqrt(v * vhat_scale) + c["eps"]), m, v)
        return updates, {"t": t, "m": m, "v": v}


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    return Adam(lr, b1, b2, eps)


def apply_updates(params, updates):
    return jax.tree.map(jnp.add, params, updates)
