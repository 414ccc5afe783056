"""A flax Linen MLP classifier trained with optax.adamw, in the shape of the flax examples: a
jitted train step, an evaluation step with a label-smoothing option, an epoch loop over shuffled
batches, metrics kept on the device and read once per epoch."""

import argparse
import functools

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax


class MLP(nn.Module):
    hidden: int = 32
    classes: int = 3

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(self.hidden)(x))
        return nn.Dense(self.classes)(x)


def make_data(seed, n=384):
    rng = np.random.default_rng(seed)
    centers = rng.normal(size=(3, 4)) * 3.0
    labels = rng.integers(0, 3, size=n)
    x = centers[labels] + rng.normal(size=(n, 4))
    return x.astype(np.float32), labels.astype(np.int32)


def loss_fn(params, model, x, y, smoothing=0.0):
    logits = model.apply({"params": params}, x)
    targets = optax.smooth_labels(jax.nn.one_hot(y, 3), smoothing)
    return optax.softmax_cross_entropy(logits, targets).mean(), logits


def make_train_step(model, optimizer):
    @jax.jit
    def train_step(params, opt_state, x, y):
        (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, model, x, y, 0.1)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        accuracy = jnp.mean(jnp.argmax(logits, -1) == y)
        return params, opt_state, loss, accuracy

    return train_step


def evaluate(params, model, x, y, smoothing):
    loss, logits = loss_fn(params, model, x, y, smoothing)
    return loss, jnp.mean(jnp.argmax(logits, -1) == y)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()

    x, y = make_data(0)
    xv, yv = make_data(1, n=128)
    model = MLP()
    params = model.init(jax.random.key(0), x[:1])["params"]
    optimizer = optax.adamw(3e-3, weight_decay=1e-4)
    opt_state = optimizer.init(params)
    train_step = make_train_step(model, optimizer)
    eval_step = jax.jit(functools.partial(evaluate, model=model, smoothing=0.0))
    rng = np.random.default_rng(2)
    steps = len(x) // args.batch_size
    for epoch in range(args.epochs):
        order = rng.permutation(len(x))
        losses, accs = [], []
        for i in range(steps):
            idx = order[i * args.batch_size : (i + 1) * args.batch_size]
            params, opt_state, loss, acc = train_step(params, opt_state, x[idx], y[idx])
            losses.append(loss)
            accs.append(acc)
        train_loss = jnp.stack(losses).mean()
        val_loss, val_acc = eval_step(params, x=xv, y=yv)
        print(f"epoch {epoch}: train {float(train_loss):.3f} val {float(val_loss):.3f} acc {float(val_acc):.2f}")


if __name__ == "__main__":
    main()
