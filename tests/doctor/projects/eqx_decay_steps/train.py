"""An equinox classifier on two moons, trained with eqx.filter_jit and an optax optimizer whose
learning rate is cut every `--decay-every` steps, in the style of equinox's examples: the model,
the optimizer's state and the optimizer itself go into one filtered step. The learning rate lives
in the optimizer's state (optax.inject_hyperparams), so cutting it compiles nothing new."""

import argparse

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def moons(key, n):
    k_angle, k_noise = jax.random.split(key)
    angle = jax.random.uniform(k_angle, (n,), maxval=jnp.pi)
    upper = jnp.arange(n) % 2 == 0
    x = jnp.where(upper, jnp.cos(angle), 1.0 - jnp.cos(angle))
    y = jnp.where(upper, jnp.sin(angle), 0.5 - jnp.sin(angle))
    points = jnp.stack([x, y], axis=1) + 0.1 * jax.random.normal(k_noise, (n, 2))
    return points, upper.astype(jnp.int32)


def loss_fn(model, x, labels):
    logits = jax.vmap(model)(x)
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


@eqx.filter_jit
def make_step(model, opt_state, optim, x, labels):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x, labels)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_inexact_array))
    return eqx.apply_updates(model, updates), opt_state, loss


@eqx.filter_jit
def accuracy(model, x, labels):
    return jnp.mean(jnp.argmax(jax.vmap(model)(x), axis=1) == labels)


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--decay-every", type=int, default=8)
    parser.add_argument("--batch", type=int, default=64)
    args = parser.parse_args(argv)
    data_key, model_key, order_key = jax.random.split(jax.random.key(42), 3)
    x, labels = moons(data_key, 512)
    model = eqx.nn.MLP(2, 2, 32, 2, activation=jax.nn.tanh, key=model_key)
    lr = 1e-2
    optim = optax.inject_hyperparams(optax.adam)(learning_rate=lr)
    opt_state = optim.init(eqx.filter(model, eqx.is_inexact_array))
    for step in range(args.steps):
        if step and step % args.decay_every == 0:
            lr = lr * 0.5
            opt_state.hyperparams["learning_rate"] = jnp.asarray(lr, dtype=jnp.float32)
        order_key, sub = jax.random.split(order_key)
        idx = jax.random.choice(sub, len(x), (args.batch,), replace=False)
        model, opt_state, loss = make_step(model, opt_state, optim, x[idx], labels[idx])
    print(f"loss {float(loss):.3f} accuracy {float(accuracy(model, x, labels)):.3f}")


if __name__ == "__main__":
    main()
