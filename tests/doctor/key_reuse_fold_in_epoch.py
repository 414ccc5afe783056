"""A dropout key folded from one base key each step, but with the epoch folded in, not the step:
every batch of an epoch gets the same key, so every step of an epoch drops the same units. The
line to change is the fold_in (fold in the step count); the jitted step is where the reuse
shows."""

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
for epoch in range(3):
    for x, y in zip(xs, ys):
        key = jax.random.fold_in(base, epoch)  # finding: key-reuse
        w, loss = train_step(w, x, y, key)
print("loss", loss)
