"""A small regression fitted with optax: an exponential-decay schedule under adamw, chained with
reduce_on_plateau that is fed each epoch's validation loss. One jitted function runs a whole
epoch (lax.scan over the shuffled batches) and returns every batch's loss as one device array;
the history stays on the device until the end."""

import argparse

import jax
import jax.numpy as jnp
import optax
from optax import contrib

BATCH = 32


def predict(params, x):
    return jnp.tanh(x @ params["w1"] + params["b1"]) @ params["w2"]


def loss_fn(params, x, y):
    return jnp.mean((predict(params, x) - y) ** 2)


def make_optimizer(total_steps):
    schedule = optax.exponential_decay(3e-2, transition_steps=total_steps // 4, decay_rate=0.5)
    return optax.chain(optax.adamw(schedule, weight_decay=1e-4), contrib.reduce_on_plateau(patience=2, factor=0.5))


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=12)
    args = parser.parse_args(argv)
    data_key, init_key, order_key = jax.random.split(jax.random.key(5), 3)
    x = jax.random.uniform(data_key, (448, 1), minval=-2.0, maxval=2.0)
    y = jnp.sin(2.0 * x) + 0.3 * x
    x_train, y_train, x_val, y_val = x[:384], y[:384], x[384:], y[384:]
    k1, k2 = jax.random.split(init_key)
    params = {"w1": jax.random.normal(k1, (1, 32)), "b1": jnp.zeros(32), "w2": 0.1 * jax.random.normal(k2, (32, 1))}
    batches = x_train.shape[0] // BATCH
    optimizer = make_optimizer(args.epochs * batches)
    opt_state = optimizer.init(params)

    @jax.jit
    def train_epoch(params, opt_state, key, val_loss):
        order = jax.random.permutation(key, x_train.shape[0]).reshape(batches, BATCH)

        def step(carry, idx):
            params, opt_state = carry
            loss, grads = jax.value_and_grad(loss_fn)(params, x_train[idx], y_train[idx])
            updates, opt_state = optimizer.update(grads, opt_state, params, value=val_loss)
            return (optax.apply_updates(params, updates), opt_state), loss

        (params, opt_state), losses = jax.lax.scan(step, (params, opt_state), order)
        return params, opt_state, losses

    evaluate = jax.jit(loss_fn)
    val_loss = evaluate(params, x_val, y_val)
    history = []
    for epoch in range(args.epochs):
        order_key, sub = jax.random.split(order_key)
        params, opt_state, losses = train_epoch(params, opt_state, sub, val_loss)
        history.append(losses)
        val_loss = evaluate(params, x_val, y_val)
    history = jnp.concatenate(history)
    print(f"first {float(history[0]):.3f} last {float(history[-1]):.3f} val {float(val_loss):.4f}")


if __name__ == "__main__":
    main()
