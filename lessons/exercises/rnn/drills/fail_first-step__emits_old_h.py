# drill: 8 carry-vs-ys
import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    def step(h, x):
        h_new = jnp.tanh(h @ params["Wh"] + x @ params["Wx"] + params["b"])
        return h_new, h @ params["Wo"]

    _, ys = lax.scan(step, jnp.zeros(params["b"].shape), xs)
    return ys
