"""The clean copy of key_reuse_loader_epochs.py: the loader splits its key each epoch, keeps the
new key and shuffles with the other half."""

import jax
import jax.numpy as jnp


class Loader:
    def __init__(self, xs, ys, batch_size, key):
        self.xs, self.ys, self.batch_size, self.key = xs, ys, batch_size, key

    def __iter__(self):
        self.key, sub = jax.random.split(self.key)
        order = jax.random.permutation(sub, len(self.xs))
        for start in range(0, len(self.xs), self.batch_size):
            idx = order[start : start + self.batch_size]
            yield self.xs[idx], self.ys[idx]


@jax.jit
def sgd(w, x, y):
    return w - 0.1 * x.T @ (x @ w - y) / x.shape[0]


xs = jnp.linspace(-1.0, 1.0, 48).reshape(16, 3)
ys = xs @ jnp.array([1.0, -2.0, 0.5])
loader = Loader(xs, ys, 4, jax.random.PRNGKey(0))
w = jnp.zeros(3)
for epoch in range(3):
    for x, y in loader:
        w = sgd(w, x, y)
print(w)
