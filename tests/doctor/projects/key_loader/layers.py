"""Equinox-style layers in plain JAX: each layer is built with `key=` and splits it for its own
weights; a noisy block's `__call__` takes a key for its noise."""

import jax
import jax.numpy as jnp


class Linear:
    def __init__(self, n_in, n_out, *, key):
        wkey, bkey = jax.random.split(key)
        self.w = jax.random.normal(wkey, (n_in, n_out)) / n_in**0.5
        self.b = 0.01 * jax.random.normal(bkey, (n_out,))

    def __call__(self, x):
        return x @ self.w + self.b


class NoisyMLP:
    def __init__(self, sizes, noise, *, key):
        keys = jax.random.split(key, len(sizes) - 1)
        self.layers = [Linear(a, b, key=k) for a, b, k in zip(sizes[:-1], sizes[1:], keys)]
        self.noise = noise

    def params(self):
        return [(layer.w, layer.b) for layer in self.layers]

    def __call__(self, params, x, key):
        *hidden, last = params
        for w, b in hidden:
            key, sub = jax.random.split(key)
            x = jnp.tanh(x @ w + b)
            x = x + self.noise * jax.random.normal(sub, x.shape)
        w, b = last
        return x @ w + b


class Heads:
    """Two output heads on a shared input, each its own Linear."""

    def __init__(self, n_in, *, key):
        mean_key, scale_key = jax.random.split(key)
        self.mean = Linear(n_in, 1, key=mean_key)
        self.scale = Linear(n_in, 1, key=scale_key)
