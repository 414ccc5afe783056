"""Logistic regression with optax.inject_hyperparams: the learning rate lives in the optimizer
state and is decayed between epochs without recompiling the step."""
import argparse

import jax
import jax.numpy as jnp
import optax


def data(key, n=1024, d=8):
    kw, kx = jax.random.split(key)
    w_true = jax.random.normal(kw, (d,))
    x = jax.random.normal(kx, (n, d))
    y = (x @ w_true > 0).astype(jnp.float32)
    return x, y


def loss_fn(params, x, y):
    logits = x @ params["w"] + params["b"]
    return optax.sigmoid_binary_cross_entropy(logits, y).mean()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--batch", type=int, default=128)
    args = parser.parse_args()

    key = jax.random.key(0)
    key, data_key = jax.random.split(key)
    x, y = data(data_key)
    params = {"w": jnp.zeros(x.shape[1]), "b": jnp.zeros(())}
    optimizer = optax.inject_hyperparams(optax.adamw)(learning_rate=0.05, weight_decay=1e-4)
    opt_state = optimizer.init(params)

    @jax.jit
    def train_step(params, opt_state, xb, yb):
        loss, grads = jax.value_and_grad(loss_fn)(params, xb, yb)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    @jax.jit
    def accuracy(params, x, y):
        return jnp.mean(((x @ params["w"] + params["b"]) > 0) == (y > 0.5))

    n_batches = x.shape[0] // args.batch
    for epoch in range(args.epochs):
        key, perm_key = jax.random.split(key)
        perm = jax.random.permutation(perm_key, x.shape[0])
        epoch_loss = jnp.zeros(())
        for i in range(n_batches):
            idx = perm[i * args.batch : (i + 1) * args.batch]
            params, opt_state, loss = train_step(params, opt_state, x[idx], y[idx])
            epoch_loss = epoch_loss + loss
        opt_state.hyperparams["learning_rate"] = opt_state.hyperparams["learning_rate"] * 0.7
        lr = float(opt_state.hyperparams["learning_rate"])
        print(f"epoch {epoch}: loss {float(epoch_loss) / n_batches:.4f} lr {lr:.4f} acc {float(accuracy(params, x, y)):.3f}")


if __name__ == "__main__":
    main()
