# Mutant: the bias goes through a custom_vjp whose backward pass returns zero, so only
# params["b"] gets a wrong gradient while every value stays right.
# says: jax.grad(loss)(params)['b']
import jax
import jax.numpy as jnp
from jax import lax


@jax.custom_vjp
def add_bias(z, b):
    return z + b


def _fwd(z, b):
    return z + b, b.shape


def _bwd(shape, g):
    return g, jnp.zeros(shape, g.dtype)


add_bias.defvjp(_fwd, _bwd)


def rnn_forward(params, xs):
    def step(h, x):
        h = jnp.tanh(add_bias(h @ params["Wh"] + x @ params["Wx"], params["b"]))
        return h, h @ params["Wo"]

    h0 = jnp.zeros(params["b"].shape, xs.dtype)
    _, ys = lax.scan(step, h0, xs)
    return ys
