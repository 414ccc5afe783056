import jax
import jax.numpy as jnp


@jax.jit
def rnn_forward(params, xs):
    def cell(carry, x_t):
        h, t = carry
        pre = jnp.dot(h, params["Wh"]) + jnp.einsum("d,dh->h", x_t, params["Wx"]) + params["b"]
        h = jnp.tanh(pre)
        return (h, t + 1), jnp.dot(h, params["Wo"])

    init = (jnp.zeros_like(params["b"]), jnp.int32(0))
    (_, steps), ys = jax.lax.scan(cell, init, xs)
    return ys
