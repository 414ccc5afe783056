# doctor: --nans
"""A cross-entropy from log_sigmoid: finite loss and finite gradient where p underflows."""

import jax
import jax.numpy as jnp


@jax.jit
def loss(w, x, y):
    logp = jax.nn.log_sigmoid(x @ w)
    return -jnp.mean(y * logp)


x = jnp.array([[200.0, 0.0], [-200.0, 1.0]])
y = jnp.array([1.0, 0.0])
w = jnp.array([-1.0, 0.5])
for _ in range(3):
    grads = jax.grad(loss)(w, x, y)
    w = w - 0.1 * grads
print(w)
