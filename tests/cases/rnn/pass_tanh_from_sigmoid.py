"""tanh(z) = 2 sigmoid(2z) - 1: a formula that saturates instead of overflowing."""

import jax
import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    def step(h, x):
        h = 2.0 * jax.nn.sigmoid(2.0 * (h @ params["Wh"] + x @ params["Wx"] + params["b"])) - 1.0
        return h, h @ params["Wo"]

    _, ys = lax.scan(step, jnp.zeros(params["b"].shape, xs.dtype), xs)
    return ys
