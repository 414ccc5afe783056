"""A small MLP in plain JAX: init splits the key it is given, one key per layer, and hands the
rest back; a noisy forward pass for training (Gaussian noise on the hidden layer)."""

import jax
import jax.numpy as jnp


def init_mlp(key, sizes):
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        key, sub = jax.random.split(key)
        params.append({"w": jax.random.normal(sub, (n_in, n_out)) / n_in**0.5, "b": jnp.zeros(n_out)})
    return params, key


def forward(params, x, noise_key=None, noise=0.1):
    *hidden, last = params
    for layer in hidden:
        x = jnp.tanh(x @ layer["w"] + layer["b"])
        if noise_key is not None:
            noise_key, sub = jax.random.split(noise_key)
            x = x + noise * jax.random.normal(sub, x.shape)
    return x @ last["w"] + last["b"]
