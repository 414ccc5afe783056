"""lax.scan with unroll=2 over a jax.checkpoint'ed step (remat in the backward pass): still one
scan carrying h, whatever the length."""
import jax
import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    @jax.checkpoint
    def step(h, x):
        h = jnp.tanh(jnp.dot(h, params["Wh"]) + jnp.dot(x, params["Wx"]) + params["b"])
        return h, jnp.dot(h, params["Wo"])

    return lax.scan(step, jnp.zeros_like(params["b"], dtype=xs.dtype), xs, unroll=2)[1]
