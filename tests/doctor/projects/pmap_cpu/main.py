"""pmap-era data parallelism (the JAX 2020 tutorials), on two CPU devices: parameters replicated,
each device takes its shard of the batch, gradients averaged with lax.pmean."""

import argparse
import functools

import jax

jax.config.update("jax_num_cpu_devices", 2)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402


def loss_fn(params, x, y):
    pred = x @ params["w"] + params["b"]
    return jnp.mean((pred - y) ** 2)


@functools.partial(jax.pmap, axis_name="batch")
def update(params, x, y, lr, key):
    x = x + 0.01 * jax.random.normal(key, x.shape)  # input noise, a different key per device
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    grads = jax.lax.pmean(grads, axis_name="batch")
    loss = jax.lax.pmean(loss, axis_name="batch")
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads), loss


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=40)
    args = parser.parse_args(argv)
    n = jax.local_device_count()
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 64, 3)).astype(np.float32)
    y = (x @ np.array([1.0, -2.0, 0.5], np.float32) + 0.3).astype(np.float32)
    params = {"w": jnp.zeros(3), "b": jnp.zeros(())}
    replicated = jax.tree_util.tree_map(lambda a: jnp.stack([a] * n), params)
    lr = jnp.full((n,), 0.1)
    key = jax.random.PRNGKey(0)
    losses = []
    for step in range(args.steps):
        key, sub = jax.random.split(key)
        replicated, loss = update(replicated, x, y, lr, jax.random.split(sub, n))
        losses.append(loss)
    print(f"devices {n}, loss {float(losses[-1][0]):.4f}")


if __name__ == "__main__":
    main()
