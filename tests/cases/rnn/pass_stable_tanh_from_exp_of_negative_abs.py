"""tanh written stably by hand: sign(z) * (1 - e^-2|z|) / (1 + e^-2|z|), never overflowing."""
import jax.numpy as jnp
from jax import lax


def _tanh(z):
    e = jnp.exp(-2.0 * jnp.abs(z))
    return jnp.sign(z) * (1.0 - e) / (1.0 + e)


def rnn_forward(params, xs):
    def step(h, x):
        h = _tanh(h @ params["Wh"] + x @ params["Wx"] + params["b"])
        return h, h @ params["Wo"]

    _, ys = lax.scan(step, jnp.zeros(params["b"].shape, xs.dtype), xs)
    return ys
