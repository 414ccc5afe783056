"""An equinox MLP regressor trained with eqx.filter_jit and optax, in the style of equinox's
examples: the model and the optimizer's state go in and come out of one filtered step."""

import argparse

import equinox as eqx
import jax
import jax.numpy as jnp
import optax

LOSS_SCALE = 1.0


def loss_fn(model, x, y):
    pred = jax.vmap(model)(x)
    return LOSS_SCALE * jnp.mean((pred - y) ** 2)


@eqx.filter_jit
def make_step(model, opt_state, optim, x, y):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x, y)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    model = eqx.apply_updates(model, updates)
    return model, opt_state, loss


def batches(key, x, y, size):
    n = len(x)
    while True:
        key, sub = jax.random.split(key)
        order = jax.random.permutation(sub, n)
        for start in range(0, n - size + 1, size):
            idx = order[start : start + size]
            yield x[idx], y[idx]


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=60)
    args = parser.parse_args(argv)
    key = jax.random.key(0)
    data_key, model_key, loader_key = jax.random.split(key, 3)
    x = jax.random.normal(data_key, (256, 4))
    y = jnp.sin(x.sum(axis=1, keepdims=True))
    model = eqx.nn.MLP(4, 1, 16, 2, key=model_key)
    optim = optax.adamw(3e-3)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    losses = []
    for step, (xb, yb) in zip(range(args.steps), batches(loader_key, x, y, 32)):
        model, opt_state, loss = make_step(model, opt_state, optim, xb, yb)
        losses.append(loss)
    print(f"final loss {float(jnp.stack(losses)[-10:].mean()):.4f}")


if __name__ == "__main__":
    main()
