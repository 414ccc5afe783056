import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    Wh, Wx, b, Wo = params["Wh"], params["Wx"], params["b"], params["Wo"]

    def step(h, x):
        h_new = jnp.tanh(Wh @ h + x @ Wx + b)   # column-vector convention for W_h
        return h_new, h_new

    _, hs = lax.scan(step, jnp.zeros(Wh.shape[0]), xs)
    return hs @ Wo
