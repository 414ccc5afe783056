"""Dropout masks from fold_in(key, 0) on every step: folding in a constant gives the same key each
time, so every step drops the same units. Fold in the step number instead."""
import jax
import jax.numpy as jnp

key = jax.random.PRNGKey(42)
w = jnp.ones(8)
for step in range(10):
    k = jax.random.fold_in(key, 0)  # finding: key-reuse
    mask = jax.random.bernoulli(k, 0.5, (8,))
    w = w * jnp.where(mask, 1.0, 0.99)
print(float(w.sum()))
