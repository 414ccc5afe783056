"""The clean copy of key_reuse_init_same_subkey.py: each layer is built with its own half of the
model's key, and the layers' list is built from one key per layer."""

import jax
import jax.numpy as jnp


class Linear:
    def __init__(self, n_in, n_out, *, key):
        wkey, bkey = jax.random.split(key)
        self.w = jax.random.normal(wkey, (n_in, n_out)) / n_in**0.5
        self.b = 0.01 * jax.random.normal(bkey, (n_out,))

    def __call__(self, x):
        return x @ self.w + self.b


class MLP:
    def __init__(self, *, key):
        k1, k2 = jax.random.split(key)
        self.l1 = Linear(4, 4, key=k1)
        self.l2 = Linear(4, 1, key=k2)

    def __call__(self, x):
        return self.l2(jnp.tanh(self.l1(x)))


class Deep:
    def __init__(self, sizes, *, key):
        keys = jax.random.split(key, len(sizes) - 1)
        self.layers = [Linear(a, b, key=k) for a, b, k in zip(sizes[:-1], sizes[1:], keys)]


key = jax.random.PRNGKey(0)
key, model_key, deep_key = jax.random.split(key, 3)
model = MLP(key=model_key)
deep = Deep([4, 8, 8, 1], key=deep_key)
key, data_key = jax.random.split(key)
print(model(jax.random.normal(data_key, (5, 4))).shape, len(deep.layers))
