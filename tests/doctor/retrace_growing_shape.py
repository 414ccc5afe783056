"""Batches of a different length each time: one compile per length."""
import jax
import jax.numpy as jnp


def batch_loss(w, xs):
    return jnp.mean((xs * w - 1.0) ** 2)


loss = jax.jit(batch_loss)
w = jnp.float32(0.5)
for n in (4, 5, 6, 7):
    print(n, loss(w, jnp.ones(n)))  # finding: retrace
