# Keeps the hidden state in float16 "to save memory": the outputs drift from the float64 reference.
import jax.numpy as jnp
from jax import lax


def rnn_forward(params, xs):
    p16 = {k: v.astype(jnp.float16) for k, v in params.items()}

    def step(h, x):
        h = jnp.tanh(h @ p16["Wh"] + x.astype(jnp.float16) @ p16["Wx"] + p16["b"])
        return h, h @ p16["Wo"]

    _, ys = lax.scan(step, jnp.zeros(p16["b"].shape, jnp.float16), xs)
    return ys.astype(xs.dtype)
