"""The clean copy of key_reuse_fold_in_epoch.py: the step count is folded into the base key, a
new key for every step."""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x, y, key):
    def loss_fn(v):
        keep = jax.random.bernoulli(key, 0.8, x.shape)
        return jnp.mean((jnp.where(keep, x / 0.8, 0.0) @ v - y) ** 2)

    loss, g = jax.value_and_grad(loss_fn)(w)
    return w - 0.1 * g, loss


base = jax.random.PRNGKey(0)
xs = jnp.linspace(-1.0, 1.0, 96).reshape(3, 8, 4)
ys = jnp.ones((3, 8))
w = jnp.zeros(4)
step = 0
for epoch in range(3):
    for x, y in zip(xs, ys):
        key = jax.random.fold_in(base, step)
        w, loss = train_step(w, x, y, key)
        step += 1
print("loss", loss)
