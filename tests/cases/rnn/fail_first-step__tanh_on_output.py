# Mutant: tanh applied to the output as well, y_t = tanh(h_t Wo).
import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    def step(h, x):
        h_new = jnp.tanh(h @ params["Wh"] + x @ params["Wx"] + params["b"])
        return h_new, jnp.tanh(h_new @ params["Wo"])

    h0 = jnp.zeros(params["b"].shape)
    _, ys = lax.scan(step, h0, xs)
    return ys

