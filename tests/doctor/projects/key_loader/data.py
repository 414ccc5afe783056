"""A small in-memory data loader: shuffled batches, a new order every epoch from its own key."""

import jax


class Loader:
    def __init__(self, xs, ys, batch_size, *, key):
        self.xs, self.ys, self.batch_size, self.key = xs, ys, batch_size, key

    def __len__(self):
        return len(self.xs) // self.batch_size

    def __iter__(self):
        self.key, shuffle_key = jax.random.split(self.key)
        order = jax.random.permutation(shuffle_key, len(self.xs))
        for i in range(len(self)):
            idx = order[i * self.batch_size : (i + 1) * self.batch_size]
            yield self.xs[idx], self.ys[idx]
