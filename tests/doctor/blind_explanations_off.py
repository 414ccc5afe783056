"""A script that turns JAX's cache-miss explanations off: the retrace detector cannot see, and
the report must say so rather than claim that nothing of the script's was traced."""

import jax
import jax.numpy as jnp

jax.config.update("jax_explain_cache_misses", False)


@jax.jit
def step(w, x):
    return w - 0.1 * x


w = jnp.zeros(3)
for i in range(5):
    w = step(w, jnp.full(3, float(i)))
print(w)
