import jax
import jax.numpy as jnp


def rnn_forward(params, xs):
    def step(carry, t):
        (h,) = carry
        x = jax.lax.dynamic_index_in_dim(xs, t, keepdims=False)
        h = jnp.tanh(jnp.matmul(h, params["Wh"]) + jnp.matmul(x, params["Wx"]) + params["b"])
        y = jnp.matmul(h, params["Wo"])
        return (h,), (y, h)

    (_,), (ys, hs) = jax.lax.scan(step, (jnp.zeros(params["Wh"].shape[1]),), jnp.arange(xs.shape[0]))
    return ys
