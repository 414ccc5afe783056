"""An MLP with dropout written in the transform style."""
import jax
import jax.numpy as jnp

from nets.transform import next_rng, param


def glorot(key, shape):
    return jax.random.normal(key, shape) * jnp.sqrt(2.0 / sum(shape))


def mlp(x, is_training):
    h = x
    for i, width in enumerate((32, 32)):
        w = param(f"w{i}", (h.shape[-1], width), glorot)
        b = param(f"b{i}", (width,), lambda k, s: jnp.zeros(s))
        h = jax.nn.relu(h @ w + b)
        if is_training:
            keep = jax.random.bernoulli(next_rng(), 0.9, h.shape)
            h = jnp.where(keep, h / 0.9, 0.0)
    w = param("out", (h.shape[-1], 1), glorot)
    return (h @ w)[:, 0]
