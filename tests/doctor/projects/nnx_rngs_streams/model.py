"""A flax NNX classifier: two linear layers with dropout, its randomness from nnx.Rngs streams
(params for the initial weights, dropout for the masks)."""
from flax import nnx


class Classifier(nnx.Module):
    def __init__(self, din, dhidden, dout, *, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(din, dhidden, rngs=rngs)
        self.drop = nnx.Dropout(0.2, rngs=rngs)
        self.out = nnx.Linear(dhidden, dout, rngs=rngs)

    def __call__(self, x):
        return self.out(self.drop(nnx.relu(self.hidden(x))))
