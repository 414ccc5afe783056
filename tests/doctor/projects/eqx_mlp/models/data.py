"""Gaussian blobs, one per class, as NumPy arrays; batches in a given order, the last partial
batch dropped."""
import numpy as np


def make_blobs(seed, n_classes=4, dim=16, n_train=512, n_test=256):
    rng = np.random.default_rng(seed)
    centers = 2.0 * rng.normal(size=(n_classes, dim))

    def sample(n):
        y = rng.integers(0, n_classes, n)
        x = centers[y] + rng.normal(size=(n, dim))
        return x.astype(np.float32), y.astype(np.int32)

    return sample(n_train), sample(n_test)


def batches(order, x, y, batch_size):
    for start in range(0, len(order) - batch_size + 1, batch_size):
        idx = order[start : start + batch_size]
        yield x[idx], y[idx]
