"""A hand-registered PyTree class, Adam written inline, permutation minibatches, donate_argnames."""
import functools

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class TrainState:
    def __init__(self, step, params, opt_state, key):
        self.step, self.params, self.opt_state, self.key = step, params, opt_state, key

    def tree_flatten(self):
        return (self.step, self.params, self.opt_state, self.key), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    def replace(self, **kw):
        d = dict(step=self.step, params=self.params, opt_state=self.opt_state, key=self.key)
        d.update(kw)
        return TrainState(**d)


def init_mlp(key, sizes=(1, 24, 24, 1)):
    keys = jax.random.split(key, len(sizes) - 1)
    return [{"w": jax.random.normal(k, (a, b)) / jnp.sqrt(a), "b": jnp.zeros(b)}
            for k, a, b in zip(keys, sizes[:-1], sizes[1:])]


def mlp(params, x):
    for layer in params[:-1]:
        x = jnp.tanh(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def create_train_state(key):
    k_model, k_train = jax.random.split(key)
    params = init_mlp(k_model)
    zeros = lambda: jax.tree.map(jnp.zeros_like, params)
    opt_state = {"t": jnp.zeros((), jnp.int32), "m": zeros(), "v": zeros()}
    return TrainState(jnp.zeros((), jnp.int32), params, opt_state, k_train)


def _adam(opt_state, grads, lr=0.01, b1=0.9, b2=0.999, eps=1e-8):
    t = opt_state["t"] + 1
    m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, opt_state["m"], grads)
    v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, opt_state["v"], grads)
    upd = jax.tree.map(lambda m, v: -lr * (m / (1 - b1 ** t)) / (jnp.sqrt(v / (1 - b2 ** t)) + eps), m, v)
    return upd, {"t": t, "m": m, "v": v}


def _train_step(state: TrainState, batch, batch_size: int = 64):
    x, y = batch
    key, perm_key = jax.random.split(state.key)
    idx = jax.random.permutation(perm_key, x.shape[0])[:batch_size]
    loss, grads = jax.value_and_grad(lambda p: jnp.mean((mlp(p, x[idx]) - y[idx]) ** 2))(state.params)
    upd, opt_state = _adam(state.opt_state, grads)
    params = jax.tree.map(jnp.add, state.params, upd)
    return state.replace(step=state.step + 1, params=params, opt_state=opt_state, key=key), loss


train_step = jax.jit(_train_step, donate_argnames=("state",), static_argnames=("batch_size",))
