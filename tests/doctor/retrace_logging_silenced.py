"""A script that silences logging as many training scripts do (absl and TensorFlow habits), and
retraces on every new learning rate: the doctor still reads JAX's explanations."""

import logging
from functools import partial

import jax
import jax.numpy as jnp

logging.disable(logging.WARNING)
logging.getLogger("jax").setLevel(logging.ERROR)


@partial(jax.jit, static_argnums=2)
def sgd(w, g, lr):
    return w - lr * g


w = jnp.ones(3)
for epoch in range(6):
    w = sgd(w, w * 0.1, 0.1 / (epoch + 1))  # finding: retrace
print(w)
