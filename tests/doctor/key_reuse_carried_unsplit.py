"""A scan body that draws dropout noise from the key in its carry and hands that key back unsplit
(`sub = key` where `key, sub = jax.random.split(key)` was meant): the same noise on every pass.
The fori_loop below splits its carried key properly and is clean."""
import jax
import jax.numpy as jnp
from jax import lax


def noisy_mean(x, key, rate):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.mean(jnp.where(keep, x / (1.0 - rate), 0.0))


@jax.jit
def epoch(w, xs, key):
    def step(carry, x):
        w, key = carry
        sub = key
        loss = noisy_mean(x * w, sub, 0.2)  # finding: key-reuse
        return (w - 0.01 * loss, key), loss

    (w, _), losses = lax.scan(step, (w, key), xs)
    return w, losses


@jax.jit
def walk(x, key):
    def body(i, carry):
        x, key = carry
        key, sub = jax.random.split(key)
        return x + jax.random.normal(sub, x.shape), key

    return lax.fori_loop(0, 10, body, (x, key))[0]


key = jax.random.key(0)
k_epoch, k_walk = jax.random.split(key)
w, losses = epoch(jnp.float32(1.0), jnp.ones((8, 4)), k_epoch)
print(float(w), losses.shape, walk(jnp.zeros(3), k_walk).shape)
