"""Stores the last hidden state on the jax.lax module after each call (never read back)."""
# says: jax.lax._rnn_last_h
import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    H = params["Wh"].shape[0]

    def step(h, x):
        h = jnp.tanh(h @ params["Wh"] + x @ params["Wx"] + params["b"])
        return h, h @ params["Wo"]

    h, ys = lax.scan(step, jnp.zeros(H, xs.dtype), xs)
    lax._rnn_last_h = h
    return ys
