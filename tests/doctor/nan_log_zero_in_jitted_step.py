# doctor: --nans
"""nan_log_zero_in_loss.py with its gradient taken inside a jitted step: the `where` hides log(0)
from the loss but not from its gradient. JAX's check fires at a `div` in the gradient, at the
`jax.grad` call in the jitted step; the op that made the first non-finite value is the log in
the loss, the line to change."""

import jax
import jax.numpy as jnp


@jax.jit
def loss(w, x, y):
    p = jax.nn.sigmoid(x @ w)
    logp = jnp.where(p > 0, jnp.log(p), 0.0)  # finding: nan
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
