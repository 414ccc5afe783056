"""Synthetic 8x8 'digits' as NumPy arrays (what a tfds pipeline yields) and a shuffled batch
iterator that drops the last partial batch."""
import numpy as np


def synthetic_digits(seed, n_train=512, n_test=128):
    rng = np.random.default_rng(seed)
    protos = rng.normal(size=(10, 64)).astype(np.float32)

    def make(n):
        labels = rng.integers(0, 10, n)
        return (protos[labels] + 0.5 * rng.normal(size=(n, 64))).astype(np.float32), labels.astype(np.int32)

    return make(n_train), make(n_test)


def batches(rng, x, y, batch_size):
    order = rng.permutation(x.shape[0])
    for start in range(0, x.shape[0] - batch_size + 1, batch_size):
        idx = order[start : start + batch_size]
        yield x[idx], y[idx]
