"""Regression with a transform-style MLP: init/apply, an optax optimizer and a jitted update."""
import argparse

import jax
import jax.numpy as jnp
import optax

from nets.mlp import mlp
from nets.transform import transform


def make_data(key, n=512):
    kx, kn = jax.random.split(key)
    x = jax.random.uniform(kx, (n, 4), minval=-1.0, maxval=1.0)
    y = jnp.sin(3 * x[:, 0]) + x[:, 1] * x[:, 2] + 0.05 * jax.random.normal(kn, (n,))
    return x, y


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--batch", type=int, default=64)
    args = parser.parse_args()

    net = transform(mlp)
    rng = jax.random.PRNGKey(42)
    rng, data_rng, init_rng = jax.random.split(rng, 3)
    x, y = make_data(data_rng)
    params = net[0](init_rng, x[:2], True)
    optimizer = optax.adam(3e-3)
    opt_state = optimizer.init(params)

    def loss_fn(params, rng, xb, yb):
        pred = net[1](params, rng, xb, True)
        return jnp.mean((pred - yb) ** 2)

    @jax.jit
    def update(params, opt_state, rng, xb, yb):
        loss, grads = jax.value_and_grad(loss_fn)(params, rng, xb, yb)
        updates, opt_state = optimizer.update(grads, opt_state)
        return optax.apply_updates(params, updates), opt_state, loss

    losses = []
    for step in range(args.steps):
        rng, step_rng, batch_rng = jax.random.split(rng, 3)
        idx = jax.random.choice(batch_rng, x.shape[0], (args.batch,), replace=False)
        params, opt_state, loss = update(params, opt_state, step_rng, x[idx], y[idx])
        losses.append(loss)
        if step % 50 == 0:
            print(f"step {step}: loss {float(loss):.4f}")
    test = net[1](params, None, x[:128], False)
    print("train mse", float(jnp.mean((test - y[:128]) ** 2)), "mean of last losses", float(jnp.mean(jnp.stack(losses[-20:]))))


if __name__ == "__main__":
    main()
