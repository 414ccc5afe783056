"""tanh written as (1 - e^-2z) / (1 + e^-2z): exact for positive z, NaN for z below about -44
(inf / inf)."""
# says: 100 times larger
import jax.numpy as jnp
from jax import lax


def _tanh(z):
    e = jnp.exp(-2.0 * z)
    return (1.0 - e) / (1.0 + e)


def rnn_forward(params, xs):
    def step(h, x):
        h = _tanh(h @ params["Wh"] + x @ params["Wx"] + params["b"])
        return h, h @ params["Wo"]

    _, ys = lax.scan(step, jnp.zeros(params["b"].shape, xs.dtype), xs)
    return ys
