# Mutant: lax.stop_gradient on Wh: no gradient reaches the recurrent weights.
import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    def step(h, x):
        h_new = jnp.tanh(h @ lax.stop_gradient(params["Wh"]) + x @ params["Wx"] + params["b"])
        return h_new, h_new @ params["Wo"]

    h0 = jnp.zeros(params["b"].shape)
    _, ys = lax.scan(step, h0, xs)
    return ys

