"""Train a small equinox classifier on synthetic blobs: flags here, the loop in train.py, the
model and data in the models package."""
import argparse

import train


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--learning-rate", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args()


if __name__ == "__main__":
    args = parse_args()
    model, acc = train.fit(args.epochs, args.batch_size, args.learning_rate, args.seed)
    print(f"done: test accuracy {acc:.3f}")
