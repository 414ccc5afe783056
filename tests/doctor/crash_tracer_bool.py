"""Early stopping decided inside the jitted step with a Python `if` on a traced loss."""
import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x, y):
    loss, g = jax.value_and_grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    if loss < 1e-3:  # finding: crash
        return w, loss
    return w - 0.1 * g, loss


x = jnp.ones((8, 3))
y = jnp.ones(8)
w = jnp.zeros(3)
for i in range(5):
    w, loss = train_step(w, x, y)
print(w)
