"""A model built from layer objects whose `__call__` takes a key: the model's own `__call__`
hands its one key to both noisy layers inside a jitted step, so both layers draw the same noise.
The line to change is the second layer's call (split the key and give each layer a half); the
draw inside the layer is where the reuse shows."""

import jax
import jax.numpy as jnp


class NoisyDense:
    def __init__(self, w):
        self.w = w

    def __call__(self, x, key):
        h = x @ self.w
        return h + 0.1 * jax.random.normal(key, h.shape)


class Net:
    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.hidden = NoisyDense(jax.random.normal(k1, (2, 8)) / 2**0.5)
        self.out = NoisyDense(jax.random.normal(k2, (8, 8)) / 8**0.5)

    def __call__(self, x, key):
        h = jnp.tanh(self.hidden(x, key))
        return self.out(h, key)  # finding: key-reuse


net = Net(jax.random.PRNGKey(0))


@jax.jit
def features(x, key):
    return net(x, key).mean(axis=0)


x = jnp.ones((4, 2))
key = jax.random.PRNGKey(1)
for _ in range(3):
    key, sub = jax.random.split(key)
    f = features(x, sub)
print(f.shape)
