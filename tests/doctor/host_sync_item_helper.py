"""A logging helper that calls .item() on every step, and np.asarray of the weights."""
import jax
import jax.numpy as jnp
import numpy as np


def record(value):
    return value.item()  # finding: host-sync


@jax.jit
def step(w):
    return w * 0.99, jnp.sum(w)


w = jnp.ones(5)
log = []
snapshots = []
for i in range(30):
    w, total = step(w)
    log.append(record(total))
    snapshots.append(np.asarray(w))  # finding: host-sync
print(log[-1], len(snapshots))
