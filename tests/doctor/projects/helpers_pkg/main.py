"""An MLP classifier in plain JAX with an optax gradient transformation; the metrics, the
learning-rate schedule and logging live in the utils package, the model in net.py."""
import argparse

import jax
import jax.numpy as jnp
import numpy as np
import optax

import net
from utils import logging_utils, metrics, schedule

TX = optax.chain(optax.clip_by_global_norm(1.0), optax.scale_by_adam())


@jax.jit
def train_step(params, opt_state, x, labels, lr):
    (loss, logits), grads = jax.value_and_grad(net.loss_fn, has_aux=True)(params, x, labels)
    updates, opt_state = TX.update(grads, opt_state, params)
    params = jax.tree_util.tree_map(lambda p, u: p - lr * u, params, updates)
    return params, opt_state, metrics.compute_metrics(loss, logits, labels)


@jax.jit
def evaluate(params, x, labels):
    _, logits = net.loss_fn(params, x, labels)
    return jnp.mean(jnp.argmax(logits, -1) == labels)


def make_blobs(seed, n=600, dim=10, classes=3):
    rng = np.random.default_rng(seed)
    centers = 2.0 * rng.normal(size=(classes, dim))
    labels = rng.integers(0, classes, n)
    x = centers[labels] + rng.normal(size=(n, dim))
    return x.astype(np.float32), labels.astype(np.int32)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--batch_size", type=int, default=48)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--log_every", type=int, default=40)
    args = parser.parse_args()

    x, labels = make_blobs(0)
    rng = np.random.default_rng(1)
    params = net.init_mlp(jax.random.key(0), [x.shape[1], 32, 32, 3])
    opt_state = TX.init(params)
    average = metrics.Average()
    for step in range(args.steps):
        idx = rng.integers(0, len(x), args.batch_size)
        lr = schedule.warmup_step_decay(step, args.lr)
        params, opt_state, step_metrics = train_step(params, opt_state, x[idx], labels[idx], lr)
        average.update(step_metrics)
        logging_utils.log_every(step, average, args.log_every, lr)
    print(f"final accuracy {float(evaluate(params, x, labels)):.3f}")


if __name__ == "__main__":
    main()
