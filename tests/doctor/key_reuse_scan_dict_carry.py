"""Noisy SGD as one `lax.scan` whose carry is a dict holding the key: the body splits the key and
draws from the new half, but the dict it returns keeps the old key, so every pass splits the same
key and draws the same noise. The line to change is the body's return (carry the new key on);
the split is where the reuse shows."""

import jax
import jax.numpy as jnp


def sgd_pass(carry, batch):
    x, y = batch
    key, sub = jax.random.split(carry["key"])
    noise = 0.01 * jax.random.normal(sub, carry["w"].shape)
    grad = x.T @ (x @ carry["w"] - y) / x.shape[0]
    w = carry["w"] - 0.1 * grad + noise
    return {"w": w, "key": carry["key"]}, jnp.mean((x @ w - y) ** 2)  # finding: key-reuse


@jax.jit
def train(w, key, xs, ys):
    carry, losses = jax.lax.scan(sgd_pass, {"w": w, "key": key}, (xs, ys))
    return carry["w"], losses


xs = jnp.ones((10, 8, 3))
ys = jnp.ones((10, 8))
w, losses = train(jnp.zeros(3), jax.random.PRNGKey(0), xs, ys)
print(losses[-1])
