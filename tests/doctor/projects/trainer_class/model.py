"""A two-layer classifier as an equinox Module holding only arrays (its sizes are static
fields), so plain jax.jit takes it as a pytree argument. Batched: x is (batch, features)."""
import equinox as eqx
import jax


class TwoLayerNet(eqx.Module):
    hidden: eqx.nn.Linear
    out: eqx.nn.Linear

    def __init__(self, din, width, n_classes, *, key):
        k1, k2 = jax.random.split(key)
        self.hidden = eqx.nn.Linear(din, width, key=k1)
        self.out = eqx.nn.Linear(width, n_classes, key=k2)

    def __call__(self, x):
        return jax.vmap(lambda e: self.out(jax.nn.relu(self.hidden(e))))(x)
