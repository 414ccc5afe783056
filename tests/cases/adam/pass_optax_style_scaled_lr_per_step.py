"""Adam in the 'efficient' form of the paper's section 2: the bias corrections folded into one
step size, with eps scaled the same way so the result is the task's formula exactly:
lr_t = lr * sqrt(1 - b2**t) / (1 - b1**t), eps_t = eps * sqrt(1 - b2**t). Large steps after a jump
included: nothing bounds the update."""

import jax
import jax.numpy as jnp


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return {"t": jnp.array(0, jnp.int32), "mu": zeros, "nu": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        t = state["t"] + 1
        mu = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state["mu"], grads)
        nu = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * jnp.square(g), state["nu"], grads)
        root = jnp.sqrt(1 - b2**t)
        step = lr * root / (1 - b1**t)
        upd = jax.tree.map(lambda m, v: -step * m / (jnp.sqrt(v) + eps * root), mu, nu)
        return upd, {"t": t, "mu": mu, "nu": nu}

    return init, update


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)
