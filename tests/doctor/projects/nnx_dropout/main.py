"""A flax NNX classifier with dropout, trained by an nnx.jit step in train.py."""
import argparse

import train

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=60)
parser.add_argument("--lr", type=float, default=0.01)
args = parser.parse_args()

model, history = train.fit(args.steps, args.lr)
print("last loss", round(history[-1], 4))
