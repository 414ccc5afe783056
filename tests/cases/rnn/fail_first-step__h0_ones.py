import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    def step(h, x):
        h = jnp.tanh(h @ params["Wh"] + x @ params["Wx"] + params["b"])
        return h, h @ params["Wo"]

    h0 = jnp.ones(params["b"].shape)   # should start from zeros
    _, ys = lax.scan(step, h0, xs)
    return ys
