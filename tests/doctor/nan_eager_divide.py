# doctor: --nans
"""0/0 in plain (not jitted) JAX code."""
import jax.numpy as jnp

counts = jnp.array([3.0, 0.0])
totals = jnp.array([6.0, 0.0])
means = totals / counts  # finding: nan
print(means)
