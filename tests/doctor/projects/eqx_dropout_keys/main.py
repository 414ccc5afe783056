"""Dropout done the equinox way: the training loop splits a fresh key every step and the model
splits it per example and per layer; each epoch is scored twice, deterministically and with
dropout on (MC dropout) under one fixed evaluation key, so the epochs' numbers compare."""
import argparse

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax

from net import DropoutMLP


def make_data(seed, n, dim=16):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, dim)).astype(np.float32)
    y = (x[:, :4].sum(1) - 0.5 * x[:, 4] > 0).astype(np.int32)
    return x, y


def loss_fn(model, x, y, key):
    keys = jax.random.split(key, x.shape[0])
    logits = jax.vmap(model)(x, key=keys)
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


@eqx.filter_jit
def train_step(model, opt_state, optim, x, y, key):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x, y, key)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state, loss


@eqx.filter_jit
def evaluate(model, x, y, key):
    plain = jax.vmap(lambda e: model(e, inference=True))(x)
    sampled = jax.vmap(model)(x, key=jax.random.split(key, x.shape[0]))
    return jnp.mean(plain.argmax(-1) == y), jnp.mean(sampled.argmax(-1) == y)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--rate", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    train_x, train_y = make_data(args.seed, 1024)
    test_x, test_y = make_data(args.seed + 1, 256)
    key = jax.random.PRNGKey(args.seed)
    key, model_key = jax.random.split(key)
    model = DropoutMLP(train_x.shape[1], 16, 2, args.rate, key=model_key)
    optim = optax.adam(1e-2)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    eval_key = jax.random.PRNGKey(1234)  # the same dropout masks every epoch: comparable numbers

    rng = np.random.default_rng(args.seed)
    for epoch in range(args.epochs):
        order = rng.permutation(len(train_x))
        losses = []
        for start in range(0, len(order) - args.batch_size + 1, args.batch_size):
            idx = order[start : start + args.batch_size]
            key, sub = jax.random.split(key)
            model, opt_state, loss = train_step(model, opt_state, optim, train_x[idx], train_y[idx], sub)
            losses.append(loss)
        plain, sampled = evaluate(model, test_x, test_y, eval_key)
        print(f"epoch {epoch}: loss {jnp.mean(jnp.stack(losses)):.4f} accuracy {plain:.3f} (mc dropout {sampled:.3f})")


if __name__ == "__main__":
    main()
