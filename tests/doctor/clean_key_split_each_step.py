"""A dropout key made once before the loop and split on every pass: a new mask each step."""

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
key = jax.random.PRNGKey(1)
for _ in range(25):
    key, dropout_key = jax.random.split(key)
    w, loss = train_step(w, x, y, dropout_key)
print("loss", loss)
