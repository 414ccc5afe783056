"""A model's init takes a key, splits it per layer and hands the rest back for the caller to go
on with."""

import jax
import jax.numpy as jnp


def init_mlp(key, sizes):
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        key, sub = jax.random.split(key)
        params.append((jax.random.normal(sub, (n_in, n_out)) / n_in**0.5, jnp.zeros(n_out)))
    return params, key


def predict(params, x):
    for w, b in params[:-1]:
        x = jnp.tanh(x @ w + b)
    w, b = params[-1]
    return x @ w + b


key = jax.random.PRNGKey(0)
params, key = init_mlp(key, [2, 8, 1])
key, data_key = jax.random.split(key)
xs = jax.random.normal(data_key, (16, 2))
print(predict(params, xs).shape)
