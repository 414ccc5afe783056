# drill: 11 carry-vs-ys
import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    def step(h, x):
        h = jnp.tanh(h @ params["Wh"] + x @ params["Wx"] + params["b"])
        return h, None

    h_last, _ = lax.scan(step, jnp.zeros(params["b"].shape), xs)
    return h_last @ params["Wo"]
