"""Regression with a noisy MLP (layers.py) fed by a shuffling loader (data.py): one key made
from --seed, split for the data, the model, the loader and every step's noise."""

import argparse

import jax
import jax.numpy as jnp
from data import Loader
from layers import Heads, NoisyMLP


def make_data(key, n):
    x = jax.random.uniform(key, (n, 2), minval=-1.0, maxval=1.0)
    return x, jnp.sin(3 * x[:, :1]) * x[:, 1:]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()

    key = jax.random.PRNGKey(args.seed)
    key, data_key, model_key, heads_key, loader_key = jax.random.split(key, 5)
    xs, ys = make_data(data_key, 64)
    model = NoisyMLP([2, 16, 16, 1], 0.05, key=model_key)
    heads = Heads(16, key=heads_key)
    loader = Loader(xs, ys, 16, key=loader_key)

    def loss_fn(params, x, y, noise_key):
        return jnp.mean((model(params, x, noise_key) - y) ** 2)

    @jax.jit
    def step(params, x, y, noise_key):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y, noise_key)
        return jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads), loss

    params = model.params()
    n = 0
    for epoch in range(args.epochs):
        for x, y in loader:
            noise_key = jax.random.fold_in(key, n)
            params, loss = step(params, x, y, noise_key)
            n += 1
        print(f"epoch {epoch}: loss {loss:.4f}")
    print("heads", heads.mean.w.shape, heads.scale.w.shape)


if __name__ == "__main__":
    main()
