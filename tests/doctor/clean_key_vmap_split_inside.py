"""The clean copy of key_reuse_vmap_one_key.py: the key is split into one key per example, the
vmap maps over them, and each example's function splits its own key inside the vmap."""

import jax
import jax.numpy as jnp


def augment(x, key):
    crop_key, noise_key = jax.random.split(key)
    shift = jax.random.randint(crop_key, (), 0, 3)
    x = jnp.roll(x, shift)
    return x + 0.05 * jax.random.normal(noise_key, x.shape)


@jax.jit
def augmented_mean(xs, key):
    keys = jax.random.split(key, xs.shape[0])
    batch = jax.vmap(augment)(xs, keys)
    return batch.mean(axis=0)


xs = jnp.arange(32.0).reshape(4, 8)
key = jax.random.PRNGKey(0)
for _ in range(3):
    key, sub = jax.random.split(key)
    m = augmented_mean(xs, sub)
print(m)
