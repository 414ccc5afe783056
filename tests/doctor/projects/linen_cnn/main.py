"""Trains the Linen CNN in train.py on synthetic 8x8 images: argparse over train_and_evaluate."""
import argparse

import train


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch_size", type=int, default=32)
    parser.add_argument("--learning_rate", type=float, default=0.05)
    parser.add_argument("--momentum", type=float, default=0.9)
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args()


if __name__ == "__main__":
    args = parse_args()
    train.train_and_evaluate(args.epochs, args.batch_size, args.learning_rate, args.momentum, args.seed)
