"""A training loop that logs the loss with an f-string on every step: each one waits for the device."""
import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - 0.05 * g, loss


x = jnp.linspace(-1.0, 1.0, 48).reshape(16, 3)
y = jnp.sin(x[:, 0])
w = jnp.zeros(3)
log = []
for i in range(30):
    w, loss = step(w, x, y)
    log.append(f"step {i:3d} loss {loss:.4f}")  # finding: host-sync
print(log[-1])
