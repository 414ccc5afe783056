# doctor: --nans
"""A cross-entropy whose `where` hides log(0) from the (jitted) loss but not from its gradient:
the loss stays finite, and the backward pass divides by the 0 that went into the log. JAX's
check fires at a `div` in the gradient, at the `jax.grad` call; the op that made the first
non-finite value is the log in the loss, the line to change."""

import jax
import jax.numpy as jnp


@jax.jit
def loss(w, x, y):
    p = jax.nn.sigmoid(x @ w)
    logp = jnp.where(p > 0, jnp.log(p), 0.0)  # finding: nan
    return -jnp.mean(y * logp)


x = jnp.array([[200.0, 0.0], [-200.0, 1.0]])
y = jnp.array([1.0, 0.0])
w = jnp.array([-1.0, 0.5])
for _ in range(3):
    grads = jax.grad(loss)(w, x, y)
    w = w - 0.1 * grads
print(w)
