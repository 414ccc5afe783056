"""Plain JAX, the whole training run in one jitted function: lax.scan over the steps with the
parameters and the PRNG key in the carry (split every step for the mini-batch and the input
noise). A sweep over learning rates calls it once per rate; the loss curves come back as arrays."""
import argparse

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

NUM_STEPS = 300
BATCH = 32


def make_data(seed, n=400, dim=5):
    rng = np.random.default_rng(seed)
    xs = rng.normal(size=(n, dim)).astype(np.float32)
    w_true = rng.normal(size=(dim,))
    ys = (xs @ w_true + 0.3 * rng.normal(size=n) > 0).astype(np.float32)
    return jnp.asarray(xs), jnp.asarray(ys)


def init_params(key, dim, hidden=16):
    k1, k2 = jax.random.split(key)
    return {
        "w1": jax.random.normal(k1, (dim, hidden)) / jnp.sqrt(dim),
        "b1": jnp.zeros(hidden),
        "w2": jax.random.normal(k2, (hidden,)) / jnp.sqrt(hidden),
        "b2": jnp.zeros(()),
    }


def logits(params, x):
    h = jnp.tanh(x @ params["w1"] + params["b1"])
    return h @ params["w2"] + params["b2"]


def bce(params, x, y):
    z = logits(params, x)
    return jnp.mean(jnp.maximum(z, 0) - z * y + jnp.log1p(jnp.exp(-jnp.abs(z))))


@jax.jit
def train(params, key, xs, ys, lr):
    def body(carry, step):
        params, key = carry
        key, k_batch, k_noise = jax.random.split(key, 3)
        idx = jax.random.randint(k_batch, (BATCH,), 0, xs.shape[0])
        xb = xs[idx] + 0.05 * jax.random.normal(k_noise, (BATCH, xs.shape[1]))
        loss, grads = jax.value_and_grad(bce)(params, xb, ys[idx])
        lr_t = lr * 0.5 ** (step // 100)
        params = jax.tree_util.tree_map(lambda p, g: p - lr_t * g, params, grads)
        return (params, key), loss

    (params, _), losses = lax.scan(body, (params, key), jnp.arange(NUM_STEPS))
    return params, losses


@jax.jit
def accuracy(params, xs, ys):
    return jnp.mean((logits(params, xs) > 0) == (ys > 0.5))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lrs", type=float, nargs="+", default=[1.0, 0.3, 0.1, 0.03])
    args = parser.parse_args()

    xs, ys = make_data(0)
    key = jax.random.key(0)
    init_key, key = jax.random.split(key)
    params0 = init_params(init_key, xs.shape[1])
    results = {}
    for lr in args.lrs:
        key, run_key = jax.random.split(key)
        params, losses = train(params0, run_key, xs, ys, lr)
        curve = np.asarray(losses)
        results[lr] = float(accuracy(params, xs, ys))
        print(f"lr {lr}: loss {curve[:20].mean():.3f} -> {curve[-20:].mean():.3f}, accuracy {results[lr]:.3f}")
    best = max(results, key=results.get)
    print("best learning rate", best)


if __name__ == "__main__":
    main()
