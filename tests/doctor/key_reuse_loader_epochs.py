"""A data loader that shuffles with the key it was built with: every epoch draws the same
permutation, so the batches come in the same order each epoch. The line to change is the
shuffle (split the loader's key each epoch and keep the new one)."""

import jax
import jax.numpy as jnp


class Loader:
    def __init__(self, xs, ys, batch_size, key):
        self.xs, self.ys, self.batch_size, self.key = xs, ys, batch_size, key

    def __iter__(self):
        order = jax.random.permutation(self.key, len(self.xs))  # finding: key-reuse
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
