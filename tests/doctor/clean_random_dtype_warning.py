"""A float64 draw without x64: JAX warns from inside jax.random, and the warning must name this
file's line, not the doctor's wrapper around jax.random."""

import jax
import jax.numpy as jnp

noise = jax.random.normal(jax.random.PRNGKey(0), (3,), dtype=jnp.float64)  # JAX warns here
print(noise.dtype)
