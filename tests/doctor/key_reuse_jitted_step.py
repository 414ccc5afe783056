"""A jitted step that draws dropout from the key it is given, while the loop passes the same
key every time: each step gets the same mask."""
import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, key):
    keep = jax.random.bernoulli(key, 0.8, x.shape)
    return w - 0.1 * jnp.mean(jnp.where(keep, x, 0.0) * w)


key = jax.random.key(42)
w = jnp.float32(1.0)
for _ in range(5):
    w = step(w, jnp.ones(16), key)  # finding: key-reuse
print(float(w))
