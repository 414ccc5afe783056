"""Differentially private SGD on a logistic model: per-example gradients with vmap, each
clipped, summed, and noised with a key folded from the step number."""
import argparse

import jax
import jax.numpy as jnp
import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=60)
parser.add_argument("--noise", type=float, default=0.5)
parser.add_argument("--clip", type=float, default=1.0)
args = parser.parse_args()


def loss(w, x, y):
    logit = x @ w
    return jnp.logaddexp(0.0, logit) - y * logit


def clipped_grad(w, x, y, clip):
    g = jax.grad(loss)(w, x, y)
    return g / jnp.maximum(1.0, jnp.linalg.norm(g) / clip)


@jax.jit
def private_step(w, xs, ys, key, lr):
    grads = jax.vmap(clipped_grad, in_axes=(None, 0, 0, None))(w, xs, ys, args.clip)
    noise = args.noise * args.clip * jax.random.normal(key, w.shape)
    return w - lr * (grads.sum(0) + noise) / xs.shape[0]


rng = np.random.default_rng(0)
x = rng.normal(size=(1024, 8)).astype(np.float32)
y = (x @ rng.normal(size=8) > 0).astype(np.float32)
base_key = jax.random.PRNGKey(1234)
init_key, noise_root = jax.random.split(base_key)
w = 0.01 * jax.random.normal(init_key, (8,))
lr = jnp.float32(0.5)
for step in range(args.steps):
    idx = rng.choice(1024, 64, replace=False)
    step_key = jax.random.fold_in(noise_root, step)
    w = private_step(w, x[idx], y[idx], step_key, lr)
    if step % 20 == 0:
        print(f"step {step}: mean loss {float(jnp.mean(loss(w, x, y))):.3f}")
