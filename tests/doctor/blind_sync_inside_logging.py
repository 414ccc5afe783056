"""The loss logged every step through the logging module: the copy to the host happens inside
logging's formatting (LogRecord.getMessage), not at a line of this script, so the host-sync
hooks do not place it. On the CPU nothing is said (no copy is made, and the transfer guard is
not installed); on an accelerator JAX's transfer guard sees 60 copies the hooks did not place
and the report says so (blinded: "transfers")."""

import logging

import jax
import jax.numpy as jnp

logging.basicConfig(level=logging.INFO, format="%(message)s")


@jax.jit
def step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    return w - 0.01 * jax.grad(lambda w: jnp.mean((x @ w) ** 2))(w), loss


w, x = jnp.ones(4), jnp.ones((8, 4))
for i in range(60):
    w, loss = step(w, x)
    logging.info("step %d: loss %s", i, loss)
