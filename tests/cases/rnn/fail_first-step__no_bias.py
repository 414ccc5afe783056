# Mutant: the bias b is left out of the pre-activation.
import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    def step(h, x):
        h_new = jnp.tanh(h @ params["Wh"] + x @ params["Wx"])
        return h_new, h_new @ params["Wo"]

    h0 = jnp.zeros(params["b"].shape)
    _, ys = lax.scan(step, h0, xs)
    return ys

