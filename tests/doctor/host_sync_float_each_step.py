"""float(loss) on every step to build a history: the loop waits for the device each time."""
import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - 0.1 * g, loss


x = jnp.ones((16, 3))
y = jnp.ones(16)
w = jnp.zeros(3)
losses = []
for i in range(40):
    w, loss = step(w, x, y)
    losses.append(float(loss))  # finding: host-sync
print(losses[-1])
