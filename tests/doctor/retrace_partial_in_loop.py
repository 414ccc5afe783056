"""jax.jit of a functools.partial built inside the loop: each partial is a new function object,
so every pass traces and compiles `normalize` again (JAX caches by function object)."""
import functools

import jax
import jax.numpy as jnp


def normalize(x, eps):
    return x / (jnp.linalg.norm(x) + eps)


x = jnp.ones(8)
for step in range(6):
    norm = jax.jit(functools.partial(normalize, eps=1e-6))  # finding: retrace
    x = x + 0.1 * norm(x)
print(float(x.sum()))
