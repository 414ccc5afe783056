"""Multiplies in float16 "to save memory", then casts back: overflows past 65504."""
# says: 65504

import jax.numpy as jnp


def scaled(x, scale):
    return (x.astype(jnp.float16) * jnp.float16(scale)).astype(x.dtype)
