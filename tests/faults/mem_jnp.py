"""Fault: a JAX array of 10**12 float32 (4 TB) on the device."""
import jax.numpy as jnp


def update_counter(count, increment):
    big = jnp.ones((10**6, 10**6))
    return count + big.sum(), increment
