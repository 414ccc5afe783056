"""pmap-era data parallelism as the 2020 tutorials set it up: CPU devices made with XLA_FLAGS
before JAX starts, the update pmapped once with its learning rate bound by functools.partial
and the schedule's value handed in per step, one shard of the batch per device."""

import argparse
import functools
import os

os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=2"

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

MOMENTUM = 0.9


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"])
    return jnp.mean((hidden @ params["w2"] - y) ** 2)


def update(params, velocity, x, y, lr, clip):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    grads = jax.lax.pmean(grads, axis_name="devices")
    grads = jax.tree_util.tree_map(lambda g: jnp.clip(g, -clip, clip), grads)
    velocity = jax.tree_util.tree_map(lambda v, g: MOMENTUM * v + g, velocity, grads)
    params = jax.tree_util.tree_map(lambda p, v: p - lr * v, params, velocity)
    return params, velocity, jax.lax.pmean(loss, axis_name="devices")


def schedule(step, base=0.05):
    return base * 0.98**step


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=30)
    args = parser.parse_args(argv)
    n = jax.local_device_count()
    rng = np.random.default_rng(3)
    x = rng.normal(size=(n, 32, 4)).astype(np.float32)
    y = np.sin(x.sum(-1, keepdims=True)).astype(np.float32)
    params = {"w1": 0.3 * rng.normal(size=(4, 16)).astype(np.float32), "w2": np.zeros((16, 1), np.float32)}
    params = jax.tree_util.tree_map(lambda a: np.stack([a] * n), params)  # one copy per device
    velocity = jax.tree_util.tree_map(jnp.zeros_like, params)
    p_update = jax.pmap(functools.partial(update, clip=1.0), axis_name="devices")
    losses = []
    for step in range(args.steps):
        lr = jnp.full((n,), schedule(step), dtype=jnp.float32)
        params, velocity, loss = p_update(params, velocity, x, y, lr)
        losses.append(loss)
    print(f"devices {n}, loss {float(losses[-1][0]):.4f}")


if __name__ == "__main__":
    main()
