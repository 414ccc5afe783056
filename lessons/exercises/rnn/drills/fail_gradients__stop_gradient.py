# drill: 7 stop-gradient
import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    def step(h, x):
        h = lax.stop_gradient(h)
        h = jnp.tanh(h @ params["Wh"] + x @ params["Wx"] + params["b"])
        return h, h @ params["Wo"]

    _, ys = lax.scan(step, jnp.zeros(params["b"].shape), xs)
    return ys
