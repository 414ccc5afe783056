"""A learning rate marked static: a new compile for every value of the schedule."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=2)
def sgd(w, g, lr):
    return w - lr * g


w = jnp.ones(4)
for lr in (0.1, 0.05, 0.025, 0.0125):
    w = sgd(w, 2 * w, lr)  # finding: retrace
print(w)
