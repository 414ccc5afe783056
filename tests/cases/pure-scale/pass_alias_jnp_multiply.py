import jax.numpy as jnp

scaled = jnp.multiply
