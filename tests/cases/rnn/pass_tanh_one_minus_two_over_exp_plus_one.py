"""tanh(z) = 1 - 2 / (exp(2z) + 1): exp overflows to inf for large z, but 2 / inf = 0 gives 1, and for
very negative z it gives -1: saturates correctly; outputs kept as (T, 1) at every length (T = 1 too)."""

import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    def step(h, x):
        z = h @ params["Wh"] + x @ params["Wx"] + params["b"]
        h = 1.0 - 2.0 / (jnp.exp(2.0 * z) + 1.0)
        return h, (h @ params["Wo"]).reshape(1)

    _, ys = lax.scan(step, jnp.zeros(params["Wh"].shape[0], xs.dtype), xs)
    return ys.reshape(xs.shape[0], 1)
