# fori_loop with static bounds (lowered to scan), writing outputs into a buffer
import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    T = xs.shape[0]

    def body(t, carry):
        h, ys = carry
        h = jnp.tanh(params["Wh"].T @ h + xs[t] @ params["Wx"] + params["b"])   # Wh.T @ h == h @ Wh
        return h, ys.at[t].set(h @ params["Wo"])

    h0 = jnp.zeros(params["b"].shape[0])
    _, ys = lax.fori_loop(0, T, body, (h0, jnp.zeros((T, 1), xs.dtype)))
    return ys
