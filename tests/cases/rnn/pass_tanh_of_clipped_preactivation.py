"""Pre-activations clipped to [-20, 20] before jnp.tanh (tanh(20) rounds to 1 in float32), and each
y_t as a sum over the hidden units with Wo's column: the same numbers at any magnitude."""

import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    Wo = params["Wo"][:, 0]

    def step(h, x):
        h = jnp.tanh(jnp.clip(jnp.einsum("h,hk->k", h, params["Wh"]) + x @ params["Wx"] + params["b"], -20.0, 20.0))
        return h, jnp.sum(h * Wo, keepdims=True)

    return lax.scan(step, jnp.zeros_like(params["b"]), xs)[1]
