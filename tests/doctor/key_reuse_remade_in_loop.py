"""A dropout key made from a constant seed inside the training loop: PRNGKey(1) made anew on every
pass is one key, so every step drops the same units."""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x, y, key):
    def loss_fn(v):
        keep = jax.random.bernoulli(key, 0.8, x.shape)
        return jnp.mean((jnp.where(keep, x / 0.8, 0.0) @ v - y) ** 2)

    loss, g = jax.value_and_grad(loss_fn)(w)
    return w - 0.1 * g, loss


x = jnp.linspace(-1.0, 1.0, 32).reshape(8, 4)
y = jnp.ones(8)
w = jnp.zeros(4)
for _ in range(25):
    key = jax.random.PRNGKey(1)  # finding: key-reuse
    w, loss = train_step(w, x, y, key)
print("loss", loss)
