"""Keeping the best loss with a Python `if` on every step: the comparison makes a boolean array
on the device, and `if` has to read it back before the loop can go on."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - 0.05 * g, loss


x = jnp.linspace(0.0, 1.0, 48).reshape(16, 3)
y = jnp.ones(16)
w = jnp.zeros(3)
best_loss, best_w = jnp.inf, w
for _ in range(40):
    w, loss = step(w, x, y)
    if loss < best_loss:  # finding: host-sync
        best_loss, best_w = loss, w
print("best", best_loss)
