import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class State:
    count: jax.Array
    m: object
    v: object


class Opt:
    def __init__(self, init, update):
        self.init = init
        self.update = update


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        leaves, treedef = jax.tree.flatten(params)
        m = treedef.unflatten([jnp.zeros_like(x) for x in leaves])
        v = treedef.unflatten([jnp.zeros_like(x) for x in leaves])
        return State(count=jnp.zeros((), jnp.float32), m=m, v=v)

    @jax.jit
    def update(grads, state, params=None):
        t = state.count + 1.0
        m = jax.tree.map(lambda a, g: b1 * a + (1.0 - b1) * g, state.m, grads)
        v = jax.tree.map(lambda a, g: b2 * a + (1.0 - b2) * g ** 2, state.v, grads)
        scale = lr * jnp.sqrt(1.0 - b2 ** t) / (1.0 - b1 ** t)
        # algebraically the same as -lr * m_hat / (sqrt(v_hat) + eps)
        updates = jax.tree.map(
            lambda a, b: -scale * a / (jnp.sqrt(b) + eps * jnp.sqrt(1.0 - b2 ** t)), m, v)
        return updates, State(count=t, m=m, v=v)

    return Opt(init, update)


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: (p + u).astype(p.dtype), params, updates)
