"""Rounds the scale to bfloat16 'as the model's weights are': 8 bits of mantissa."""
import jax.numpy as jnp


def scaled(x, scale):
    return x * jnp.bfloat16(scale).astype(jnp.float32)
