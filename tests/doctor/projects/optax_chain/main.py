"""Fit y = sin(3 x0) + x1 x2 with an MLP held as a plain dict: optax.chain of gradient clipping
and AdamW under a warmup-cosine schedule, a jitted train step that carries the optimizer state,
a jitted evaluation on held-out data."""
import argparse

import jax
import jax.numpy as jnp
import numpy as np
import optax

from model import init_params, mse


def make_data(seed, n):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, size=(n, 3)).astype(np.float32)
    y = (np.sin(3 * x[:, 0]) + x[:, 1] * x[:, 2]).astype(np.float32)
    return x, y


def make_optimizer(peak_lr, total_steps):
    schedule = optax.warmup_cosine_decay_schedule(
        init_value=0.0,
        peak_value=peak_lr,
        warmup_steps=total_steps // 10,
        decay_steps=total_steps,
        end_value=peak_lr / 100,
    )
    optimizer = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(schedule, weight_decay=1e-4))
    return optimizer, schedule


def make_train_step(optimizer):
    @jax.jit
    def train_step(params, opt_state, loss_ema, x, y):
        loss, grads = jax.value_and_grad(mse)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        return params, opt_state, 0.9 * loss_ema + 0.1 * loss

    return train_step


@jax.jit
def evaluate(params, x, y):
    return mse(params, x, y)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--peak-lr", type=float, default=1e-2)
    parser.add_argument("--log-every", type=int, default=100)
    args = parser.parse_args()

    train_x, train_y = make_data(0, 2048)
    val_x, val_y = make_data(1, 512)
    params = init_params(jax.random.PRNGKey(42), [3, 64, 1])
    optimizer, schedule = make_optimizer(args.peak_lr, args.steps)
    opt_state = optimizer.init(params)
    train_step = make_train_step(optimizer)

    rng = np.random.default_rng(2)
    loss_ema = jnp.zeros(())
    for step in range(args.steps):
        idx = rng.integers(0, len(train_x), args.batch_size)
        params, opt_state, loss_ema = train_step(params, opt_state, loss_ema, train_x[idx], train_y[idx])
        if (step + 1) % args.log_every == 0:
            val = evaluate(params, val_x, val_y)
            print(f"step {step + 1}: lr {schedule(step):.2e} train loss ~{loss_ema:.4f} val mse {val:.4f}")


if __name__ == "__main__":
    main()
