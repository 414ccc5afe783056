"""tanh as sinh(z) / cosh(z): right for moderate pre-activations, inf / inf = NaN once |z| passes
about 89, where both overflow float32."""

# says: 100 times larger
import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    def step(h, x):
        z = h @ params["Wh"] + x @ params["Wx"] + params["b"]
        h = jnp.sinh(z) / jnp.cosh(z)
        return h, h @ params["Wo"]

    _, ys = lax.scan(step, jnp.zeros_like(params["b"]), xs)
    return ys
