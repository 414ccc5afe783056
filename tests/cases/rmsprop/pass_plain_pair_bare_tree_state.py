"""A plain (init, update) pair, the state a bare tree of s (no NamedTuple), the step written as
g / (sqrt(s) + eps) * -lr with tree_util.tree_map."""
import jax.numpy as jnp
from jax import tree_util


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return tree_util.tree_map(lambda p: jnp.zeros(jnp.shape(p), jnp.result_type(p)), params)

    def update(grads, state, params=None):
        s = tree_util.tree_map(lambda s_, g: s_ * rho + g * g * (1 - rho), state, grads)
        return tree_util.tree_map(lambda g, s_: g / (jnp.sqrt(s_) + eps) * -lr, grads, s), s

    return init, update
