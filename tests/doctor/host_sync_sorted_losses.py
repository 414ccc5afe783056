"""The best few losses taken with sorted() over a device array every step: one host transfer per element."""
import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    losses = (w[None, :] * x[:, None] - 1.0) ** 2
    g = jax.grad(lambda v: jnp.mean((v[None, :] * x[:, None] - 1.0) ** 2))(w)
    return w - 0.1 * g, losses.mean(axis=1)


w = jnp.zeros(4)
x = jnp.arange(8.0)
for i in range(25):
    w, per_example = step(w, x)
    worst = sorted(per_example)[-3:]  # finding: host-sync
print(float(w.sum()))
