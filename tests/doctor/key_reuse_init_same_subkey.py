"""An equinox-style model whose layers take `key=` in their constructors: the model splits its key
in two but builds both layers with the first half, so the two layers start from the same random
weights (a layer's own split gives both the same weight and bias keys). The line to change is
the second layer's construction (hand it the other half); the draw inside the layer is where the
reuse shows."""

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
        self.l2 = Linear(4, 1, key=k1)  # finding: key-reuse

    def __call__(self, x):
        return self.l2(jnp.tanh(self.l1(x)))


key = jax.random.PRNGKey(0)
key, model_key = jax.random.split(key)
model = MLP(key=model_key)
key, data_key = jax.random.split(key)
print(model(jax.random.normal(data_key, (5, 4))).shape)
