"""An equinox MLP fitting a noisy sine, hand-written SGD with momentum inside an eqx.filter_jit
step (the equinox README's shape), an optax optimizer for the head passed in as an argument,
and a learning rate that decays by a step schedule kept as an array passed to the step."""

import argparse

import equinox as eqx
import jax
import jax.numpy as jnp
import optax

MOMENTUM = 0.9
BASE_LR = 0.003


def make_data(key, n=256):
    kx, kn = jax.random.split(key)
    x = jax.random.uniform(kx, (n, 1), minval=-3.0, maxval=3.0)
    y = jnp.sin(x) + 0.1 * jax.random.normal(kn, (n, 1))
    return x, y


def loss_fn(model, x, y):
    pred = jax.vmap(model)(x)
    return jnp.mean((pred - y) ** 2)


@eqx.filter_jit
def train_step(model, velocity, opt_state, optimizer, lr, x, y):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x, y)
    body_grads = eqx.filter(grads, eqx.is_inexact_array)
    velocity = jax.tree_util.tree_map(lambda v, g: MOMENTUM * v + g, velocity, body_grads)
    updates, opt_state = optimizer.update(velocity, opt_state)
    updates = jax.tree_util.tree_map(lambda u: lr * u, updates)
    model = eqx.apply_updates(model, updates)
    return model, velocity, opt_state, loss


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--batch", type=int, default=32)
    args = parser.parse_args()

    key = jax.random.key(42)
    data_key, model_key, loader_key = jax.random.split(key, 3)
    x, y = make_data(data_key)
    model = eqx.nn.MLP(1, 1, width_size=32, depth=2, key=model_key)
    velocity = jax.tree_util.tree_map(jnp.zeros_like, eqx.filter(model, eqx.is_inexact_array))
    optimizer = optax.scale_by_rms()
    opt_state = optimizer.init(velocity)
    lr = jnp.float32(BASE_LR)
    losses = []
    for step in range(args.steps):
        loader_key, batch_key = jax.random.split(loader_key)
        idx = jax.random.choice(batch_key, x.shape[0], (args.batch,), replace=False)
        model, velocity, opt_state, loss = train_step(model, velocity, opt_state, optimizer, lr, x[idx], y[idx])
        losses.append(loss)
        if step % 20 == 19:
            lr = lr * 0.5
    print("final loss", float(jnp.mean(jnp.stack(losses[-10:]))))


if __name__ == "__main__":
    main()
