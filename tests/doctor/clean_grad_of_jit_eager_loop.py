"""A jitted loss differentiated by jax.grad in an eager Python loop: the loss is traced once.
JAX 0.12 traces its transpose too, a function of JAX's own carrying the loss's name and line
("never seen function loss defined at line 9"): not the learner's function made again."""

import jax
import jax.numpy as jnp


@jax.jit
def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


x = jnp.ones((16, 3)) / 4.0
y = jnp.arange(16.0) / 16.0
w = jnp.zeros(3)
for step in range(8):
    w = w - 0.1 * jax.grad(loss)(w, x, y)
print(w)
