"""Trains the NNX VAE in vae.py on synthetic data that lies near a 2-d manifold, with the KL
weight raised in steps; then draws samples twice from one key to show that sampling reproduces."""
import argparse

import jax
import numpy as np
import optax
from flax import nnx

from vae import VAE, elbo_loss, sample


@nnx.jit
def train_step(model, optimizer, x, key, beta):
    loss, grads = nnx.value_and_grad(elbo_loss)(model, x, key, beta)
    optimizer.update(model, grads)
    return loss


def make_data(seed, n=512, dim=12):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n, 2))
    mixing = rng.normal(size=(2, dim))
    return (np.tanh(z @ mixing) + 0.05 * rng.normal(size=(n, dim))).astype(np.float32)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=150)
    parser.add_argument("--batch_size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--anneal_every", type=int, default=25)
    args = parser.parse_args()

    data = make_data(0)
    rng = np.random.default_rng(1)
    model = VAE(data.shape[1], 32, 2, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(args.lr), wrt=nnx.Param)
    key = jax.random.key(42)
    losses = []
    for step in range(args.steps):
        batch = data[rng.integers(0, len(data), args.batch_size)]
        key, step_key = jax.random.split(key)
        beta = min(1.0, 0.25 * (step // args.anneal_every))
        loss = train_step(model, optimizer, batch, step_key, beta)
        losses.append(loss)
        if step % 50 == 0:
            print(f"step {step}: loss {float(loss):.3f}")
    print(f"final loss {float(np.mean(jax.device_get(losses[-10:]))):.3f}")

    sample_key = jax.random.key(7)
    first = sample(model, sample_key, 8)
    again = sample(model, sample_key, 8)
    print("samples reproduce:", bool(np.allclose(first, again)))


if __name__ == "__main__":
    main()
