"""The textbook tanh on z clipped to [-20, 20] (tanh(20) == 1 in float32), inside a scan whose
step is a named function taking params through a closure."""
import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    Wh, Wx, b, Wo = params["Wh"], params["Wx"], params["b"], params["Wo"]

    def step(h, x):
        z = jnp.clip(x @ Wx + h @ Wh + b, -20.0, 20.0)
        h = (jnp.exp(z) - jnp.exp(-z)) / (jnp.exp(z) + jnp.exp(-z))
        return h, h @ Wo

    h0 = jnp.zeros_like(b, dtype=xs.dtype)
    return lax.scan(step, h0, xs)[1]
