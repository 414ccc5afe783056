"""Three Gaussian classes in 2D, fitted by a Trainer (see trainer.py); flags by argparse."""
import argparse

import jax
import numpy as np

from model import TwoLayerNet
from trainer import Trainer


def make_batches(rng, x, y, batch_size):
    order = rng.permutation(len(x))
    out = []
    for start in range(0, len(x) - batch_size + 1, batch_size):
        idx = order[start : start + batch_size]
        out.append((x[idx], y[idx]))
    return out


def make_data(seed, n):
    rng = np.random.default_rng(seed)
    centers = np.array([[0.0, 2.0], [-1.8, -1.0], [1.8, -1.0]])
    y = rng.integers(0, 3, n)
    x = centers[y] + 0.8 * rng.normal(size=(n, 2))
    return x.astype(np.float32), y.astype(np.int32)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--momentum", type=float, default=0.9)
    args = parser.parse_args()

    train_x, train_y = make_data(0, 768)
    val_x, val_y = make_data(1, 256)
    trainer = Trainer(TwoLayerNet(2, 16, 3, key=jax.random.PRNGKey(0)), args.lr, args.momentum)
    rng = np.random.default_rng(0)
    for epoch in range(args.epochs):
        train_loss = trainer.fit_epoch(make_batches(rng, train_x, train_y, args.batch_size))
        val_loss, val_acc = trainer.report(val_x, val_y)
        print(f"epoch {epoch}: train {float(train_loss):.4f} val {val_loss:.4f} accuracy {val_acc:.3f}")


if __name__ == "__main__":
    main()
