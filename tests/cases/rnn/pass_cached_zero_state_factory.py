# Correct: a cached factory of no arguments hands back the (immutable) function that makes h_0.
import functools

import jax.numpy as jnp
from jax import lax


@functools.lru_cache(maxsize=1)
def _initial_hidden():
    return jnp.zeros_like


def rnn_forward(params, xs):
    h0 = _initial_hidden()(params["b"])

    def step(h, x):
        h = jnp.tanh(h @ params["Wh"] + x @ params["Wx"] + params["b"])
        return h, h @ params["Wo"]

    return lax.scan(step, h0, xs)[1]
