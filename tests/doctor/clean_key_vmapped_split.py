"""The clean copy of key_reuse_vmapped_same_keys.py: one key split into a key per chain, and a
jitted vmap over the split keys."""

import jax
import jax.numpy as jnp


def walk(key, steps=50):
    return jnp.cumsum(jax.random.normal(key, (steps,)))


key = jax.random.PRNGKey(0)
key, sub = jax.random.split(key)
paths = jax.vmap(walk)(jax.random.split(sub, 4))
chains = jax.jit(jax.vmap(walk))
for _ in range(3):
    key, sub = jax.random.split(key)
    paths = chains(jax.random.split(sub, 4))
print("spread between chains", float(paths[:, -1].std()))
