"""The classifier: a learned per-feature scale in front of an eqx.nn.MLP. One example in,
logits out; the loss vmaps it over the batch."""
import equinox as eqx
import jax
import jax.numpy as jnp


class Classifier(eqx.Module):
    scale: jax.Array
    mlp: eqx.nn.MLP

    def __init__(self, in_size, width, n_classes, *, key):
        self.scale = jnp.ones(in_size)
        self.mlp = eqx.nn.MLP(in_size, n_classes, width, depth=2, activation=jax.nn.gelu, key=key)

    def __call__(self, x):
        return self.mlp(x * self.scale)
