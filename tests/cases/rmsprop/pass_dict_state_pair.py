import jax
import jax.numpy as jnp


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return {"sq": jax.tree_util.tree_map(lambda p: jnp.zeros(p.shape, p.dtype), params)}

    def update(grads, state, params=None):
        sq = jax.tree_util.tree_map(lambda s, g: s + (1 - rho) * (jnp.square(g) - s), state["sq"], grads)
        step = jax.tree_util.tree_map(lambda g, s: -(lr * g) / (jnp.sqrt(s) + eps), grads, sq)
        return step, {"sq": sq}

    return init, update
