# A call count on a threading.local given as a default argument: the walk reached the object but
# did not enter one of a type that is not the learner's, so its attributes were never compared.
# says: _per_thread
import threading
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: object
    update: object


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return {"sq": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None, _per_thread=threading.local()):
        _per_thread.n = getattr(_per_thread, "n", 0) + 1
        sq = jax.tree.map(lambda s, g: rho * s + (1 - rho) * g * g, state["sq"], grads)
        return jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) + eps), grads, sq), {"sq": sq}

    return Optimizer(init, update)
