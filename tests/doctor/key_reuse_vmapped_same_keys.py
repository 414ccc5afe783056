"""Four chains of a random walk, vmapped over a batch of keys built by repeating one key: every
chain draws the same steps, so the four are one chain four times."""

import jax
import jax.numpy as jnp


def walk(key, steps=50):
    return jnp.cumsum(jax.random.normal(key, (steps,)))


key = jax.random.PRNGKey(0)
paths = jax.vmap(walk)(jnp.stack([key] * 4))  # finding: key-reuse
print("spread between chains", float(paths[:, -1].std()))
