"""Fits y = sin(3x) with a noisy MLP (model.py): batches drawn by jax.random each step, a jitted
SGD step, a held-out loss at the end. Every draw takes a key of its own."""

import argparse

import jax
import jax.numpy as jnp

from model import forward, init_mlp


def sample_batch(key, n):
    x = jax.random.uniform(key, (n, 1), minval=-1.0, maxval=1.0)
    return x, jnp.sin(3 * x)


def loss_fn(params, x, y, key):
    return jnp.mean((forward(params, x, key) - y) ** 2)


@jax.jit
def sgd_step(params, x, y, key, lr):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y, key)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads), loss


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=60)
    args = parser.parse_args()
    key = jax.random.PRNGKey(0)
    params, key = init_mlp(key, [1, 32, 32, 1])
    for step in range(args.steps):
        key, batch_key = jax.random.split(key)
        x, y = sample_batch(batch_key, 64)
        key, noise_key = jax.random.split(key)
        params, loss = sgd_step(params, x, y, noise_key, jnp.float32(0.05))
        if step % 20 == 0:
            print(f"step {step}: loss {loss:.4f}")
    key, test_key = jax.random.split(key)
    x, y = sample_batch(test_key, 256)
    print("held-out loss", jnp.mean((forward(params, x) - y) ** 2))


if __name__ == "__main__":
    main()
