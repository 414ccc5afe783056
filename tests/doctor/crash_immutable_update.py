"""Gradient clipping written the NumPy way: assigning into a JAX array in place stops the script."""
import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


x = jnp.linspace(0.0, 1.0, 24).reshape(8, 3)
y = jnp.ones(8)
w = jnp.zeros(3)
for step in range(3):
    g = jax.grad(loss_fn)(w, x, y)
    g[0] = jnp.clip(g[0], -1.0, 1.0)  # finding: crash
    w = w - 0.1 * g
print(w)
