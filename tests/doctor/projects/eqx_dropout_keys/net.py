"""An MLP with dropout after each hidden layer, as an equinox Module: one example in, logits
out. Dropout needs a key when training; `inference=True` turns it off."""
import equinox as eqx
import jax


class DropoutMLP(eqx.Module):
    hidden1: eqx.nn.Linear
    hidden2: eqx.nn.Linear
    out: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __init__(self, din, width, n_classes, rate, *, key):
        k1, k2, k3 = jax.random.split(key, 3)
        self.hidden1 = eqx.nn.Linear(din, width, key=k1)
        self.hidden2 = eqx.nn.Linear(width, width, key=k2)
        self.out = eqx.nn.Linear(width, n_classes, key=k3)
        self.dropout = eqx.nn.Dropout(rate)

    def __call__(self, x, *, key=None, inference=False):
        k1, k2 = (None, None) if key is None else jax.random.split(key)
        h = self.dropout(jax.nn.relu(self.hidden1(x)), key=k1, inference=inference)
        h = self.dropout(jax.nn.relu(self.hidden2(h)), key=k2, inference=inference)
        return self.out(h)
