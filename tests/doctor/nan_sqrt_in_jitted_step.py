# doctor: --nans
"""A distance penalty through a jitted helper, differentiated inside a jitted step: at a zero
distance the sqrt's gradient divides by 0. JAX's check fires at a `div` in the step; the op to
change is the norm's sqrt in the helper (add an epsilon under it)."""

import jax
import jax.numpy as jnp


@jax.jit
def distance(a, b):
    d = a - b
    return jnp.sqrt(jnp.sum(d * d))  # finding: nan


def loss(w, target):
    return distance(w, target) + 0.5 * jnp.sum(w * w)


@jax.jit
def step(w, target):
    return w - 0.1 * jax.grad(loss)(w, target)


target = jnp.array([1.0, -2.0])
w = jnp.array([1.0, -2.0])
for _ in range(3):
    w = step(w, target)
print(w)
