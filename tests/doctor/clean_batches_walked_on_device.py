"""The data set lives on the device as (batches, batch, features); each epoch walks its batches in
Python (a slice per batch, on the device) and splits a typed key for each: no host sync."""
import jax
import jax.numpy as jnp


@jax.jit
def step(w, xb, key):
    noise = 0.01 * jax.random.normal(key, w.shape)
    g = jax.grad(lambda v: jnp.mean((xb @ v - 1.0) ** 2))(w)
    return w - 0.1 * g + noise


data = jnp.ones((4, 8, 3))
w = jnp.zeros(3)
key = jax.random.key(0)
for epoch in range(25):
    key, sub = jax.random.split(key)
    for xb, k in zip(data, jax.random.split(sub, len(data))):
        w = step(w, xb, k)
print(float(w.sum()))
