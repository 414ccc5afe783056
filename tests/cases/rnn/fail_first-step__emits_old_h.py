# Mutant: the step emits the previous hidden state times Wo (y_1 = 0).
import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    def step(h, x):
        h_new = jnp.tanh(h @ params["Wh"] + x @ params["Wx"] + params["b"])
        return h_new, h @ params["Wo"]   # emits the previous hidden state

    h0 = jnp.zeros(params["b"].shape)
    _, ys = lax.scan(step, h0, xs)
    return ys

