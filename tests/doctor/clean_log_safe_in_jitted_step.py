# doctor: --nans
"""The clean copy of nan_log_zero_in_jitted_step.py: a cross-entropy from log_sigmoid, finite loss
and finite gradient where p underflows, its gradient taken inside a jitted step."""

import jax
import jax.numpy as jnp


@jax.jit
def loss(w, x, y):
    logp = jax.nn.log_sigmoid(x @ w)
    return -jnp.mean(y * logp)


@jax.jit
def step(w, x, y):
    return w - 0.1 * jax.grad(loss)(w, x, y)


x = jnp.array([[200.0, 0.0], [-200.0, 1.0]])
y = jnp.array([1.0, 0.0])
w = jnp.array([-1.0, 0.5])
for _ in range(3):
    w = step(w, x, y)
print(w)
