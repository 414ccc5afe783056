"""Per-example augmentation under vmap: each example's function splits its key into a crop key
and a noise key, but the vmap hands every example the same key (in_axes None), so every example
gets the same crop and the same noise. The line to change is the vmap call (split the key into
one key per example and map over them); the draws inside are where the reuse shows."""

import jax
import jax.numpy as jnp


def augment(x, key):
    crop_key, noise_key = jax.random.split(key)
    shift = jax.random.randint(crop_key, (), 0, 3)
    x = jnp.roll(x, shift)
    return x + 0.05 * jax.random.normal(noise_key, x.shape)


@jax.jit
def augmented_mean(xs, key):
    batch = jax.vmap(augment, in_axes=(0, None))(xs, key)  # finding: key-reuse
    return batch.mean(axis=0)


xs = jnp.arange(32.0).reshape(4, 8)
key = jax.random.PRNGKey(0)
for _ in range(3):
    key, sub = jax.random.split(key)
    m = augmented_mean(xs, sub)
print(m)
