"""Casts the new count to int16 'since a counter never gets large': it wraps past 32767."""
# says: int16 count wraps after 32767
import jax.numpy as jnp


def update_counter(count, increment):
    return jnp.asarray(count + 1).astype(jnp.int16).astype(jnp.result_type(count)), increment
