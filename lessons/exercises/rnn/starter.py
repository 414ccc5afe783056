import jax.numpy as jnp


def rnn_forward(params, xs):
    """A tanh RNN over xs (T, D) from h_0 = 0; outputs (T, 1)."""

    def step(h, x):
        # TODO: the new hidden state from h and x, and the output y.
        y = jnp.zeros((1,), xs.dtype)
        return h, y

    h0 = jnp.zeros(params["b"].shape, xs.dtype)
    # TODO: run step over xs with lax.scan and return the stacked outputs.
    return jnp.zeros((xs.shape[0], 1), xs.dtype)
