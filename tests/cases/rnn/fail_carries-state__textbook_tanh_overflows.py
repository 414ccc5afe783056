"""tanh written out from its textbook formula: right for small z, NaN once exp(z) overflows."""
# says: 88

import jax.numpy as jnp
from jax import lax


def tanh(z):
    return (jnp.exp(z) - jnp.exp(-z)) / (jnp.exp(z) + jnp.exp(-z))


def rnn_forward(params, xs):
    def step(h, x):
        h = tanh(h @ params["Wh"] + x @ params["Wx"] + params["b"])
        return h, h @ params["Wo"]

    _, ys = lax.scan(step, jnp.zeros(params["b"].shape, xs.dtype), xs)
    return ys
