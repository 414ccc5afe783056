# says: builtins.rnn_last_hidden
# Wrong: the final hidden state is parked in builtins, to warm-start "the next sequence".
import builtins

import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    def cell(h, x):
        h = jnp.tanh(params["Wh"] @ h + x @ params["Wx"] + params["b"])
        return h, h @ params["Wo"]

    h_last, ys = lax.scan(cell, jnp.zeros_like(params["b"]), xs)
    builtins.rnn_last_hidden = h_last
    return ys
