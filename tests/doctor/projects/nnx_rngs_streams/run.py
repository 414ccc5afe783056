"""Train the NNX classifier on three synthetic blobs with nnx.jit and nnx.Optimizer."""
import argparse

import jax
import jax.numpy as jnp
import optax
from flax import nnx

from model import Classifier


def blobs(key, n=600):
    kc, kx = jax.random.split(key)
    labels = jax.random.randint(kc, (n,), 0, 3)
    centers = jnp.array([[2.0, 0.0], [-1.0, 1.7], [-1.0, -1.7]])
    return centers[labels] + 0.6 * jax.random.normal(kx, (n, 2)), labels


def loss_fn(model, x, y):
    logits = model(x)
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)
    return loss


@nnx.jit
def evaluate(model, x, y):
    return jnp.mean(jnp.argmax(model(x), -1) == y)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=150)
    args = parser.parse_args()

    x, y = blobs(jax.random.key(7))
    model = Classifier(2, 32, 3, rngs=nnx.Rngs(params=0, dropout=1))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1, momentum=0.9), wrt=nnx.Param)
    order = jax.random.permutation(jax.random.key(3), x.shape[0])
    losses = []
    for step in range(args.steps):
        idx = jnp.roll(order, -32 * step)[:32]
        losses.append(train_step(model, optimizer, x[idx], y[idx]))
    model.eval()
    acc = evaluate(model, x, y)
    print(f"loss {float(jnp.mean(jnp.stack(losses[-10:]))):.3f}, accuracy {float(acc):.3f}")


if __name__ == "__main__":
    main()
