"""Logistic regression with optax: a warmup-cosine schedule chained with reduce_on_plateau, whose
scale is fed the validation loss each epoch (optax's plateau example), and an L2 term."""

import argparse
import functools

import jax
import jax.numpy as jnp
import optax
from optax import contrib


def loss_fn(params, x, y, l2):
    logits = x @ params["w"] + params["b"]
    nll = jnp.mean(optax.sigmoid_binary_cross_entropy(logits, y))
    return nll + l2 * jnp.sum(params["w"] ** 2)


def make_optimizer(steps):
    schedule = optax.warmup_cosine_decay_schedule(0.0, 0.1, 10, steps)
    return optax.chain(optax.adam(schedule), contrib.reduce_on_plateau(patience=2, cooldown=1, factor=0.5))


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=8)
    args = parser.parse_args(argv)
    k1, k2, k3 = jax.random.split(jax.random.key(1), 3)
    x = jax.random.normal(k1, (512, 5))
    y = (x @ jax.random.normal(k2, (5,)) > 0).astype(jnp.float32)
    xv, yv = x[:128], y[:128]
    params = {"w": jnp.zeros(5), "b": jnp.zeros(())}
    steps_per_epoch = 12
    optimizer = make_optimizer(args.epochs * steps_per_epoch)
    opt_state = optimizer.init(params)
    objective = functools.partial(loss_fn, l2=1e-3)

    @jax.jit
    def train_step(params, opt_state, xb, yb, val_loss):
        loss, grads = jax.value_and_grad(objective)(params, xb, yb)
        updates, opt_state = optimizer.update(grads, opt_state, params, value=val_loss)
        return optax.apply_updates(params, updates), opt_state, loss

    evaluate = jax.jit(objective)
    val_loss = evaluate(params, xv, yv)
    perm_key = k3
    for epoch in range(args.epochs):
        perm_key, sub = jax.random.split(perm_key)
        order = jax.random.permutation(sub, 384) + 128
        for i in range(steps_per_epoch):
            idx = order[i * 32 : (i + 1) * 32]
            params, opt_state, loss = train_step(params, opt_state, x[idx], y[idx], val_loss)
        val_loss = evaluate(params, xv, yv)
    print(f"validation loss {float(val_loss):.4f}, scale {float(opt_state[1].scale):.3f}")


if __name__ == "__main__":
    main()
