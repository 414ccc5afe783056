"""A key threaded through a Python loop: a helper draws noise from it, and the loop then splits
the same key for its own draw. The helper's noise and the loop's next key come from one key.
The line to change is the call that hands the key over (split first, hand over a half); the
split after it is where the reuse shows."""

import jax
import jax.numpy as jnp


def jitter(x, key):
    return x + 0.05 * jax.random.normal(key, x.shape)


w = jnp.ones(3)
key = jax.random.PRNGKey(1)
for step in range(5):
    w = jitter(w, key)  # finding: key-reuse
    key, sub = jax.random.split(key)
    w = w - 0.1 * jax.random.uniform(sub, w.shape)
print(w)
