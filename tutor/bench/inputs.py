"""The programs the benchmark runs, carried in the package so that `python -m tutor.bench` works
from an installed wheel: a streaming training cell, and a clean training script for the doctor."""

from __future__ import annotations

# 1000 jitted training steps; STREAM=True sends every loss (a JAX scalar) to the chart. The clock
# starts after the first (compiling) step: the worker prints when the loop starts.
STREAM_CELL = """
import jax, jax.numpy as jnp
STREAM = {stream}
key = jax.random.PRNGKey(0)
xs = jnp.linspace(-3, 3, 64)[:, None]
ys = jnp.sin(xs)
params = {{"w1": jax.random.normal(key, (1, 16)) * 0.5, "b1": jnp.zeros(16),
           "w2": jax.random.normal(jax.random.PRNGKey(1), (16, 1)) * 0.5, "b2": jnp.zeros(1)}}

def loss_fn(p):
    h = jnp.tanh(xs @ p["w1"] + p["b1"])
    return jnp.mean((h @ p["w2"] + p["b2"] - ys) ** 2)

@jax.jit
def step(p):
    loss, g = jax.value_and_grad(loss_fn)(p)
    return jax.tree.map(lambda a, b: a - 0.05 * b, p, g), loss

params, loss = step(params)  # compiled (or loaded from the cache) before the clock starts
float(loss)
import time
print("loop_start", repr(time.monotonic()), flush=True)
for i in range(1000):
    params, loss = step(params)
    if STREAM:
        metric("loss", i, loss)
print("final", float(loss))
"""

# A small MLP fitted to sin(x) with a hand-written Adam: clean by every rule of the doctor's (its
# run must end with no finding), and long enough (200 steps) that the probe's cost shows.
DOCTOR_SCRIPT_NAME = "clean_adam_mlp.py"
DOCTOR_SCRIPT = '''"""Clean: a small MLP fitted to sin(x) with a hand-written Adam, one jitted step, the key
split on every step (input jitter drawn inside the step), the loss printed every 100 steps."""
import jax
import jax.numpy as jnp
import numpy as np


def init_mlp(key, sizes):
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        key, sub = jax.random.split(key)
        params.append({"w": jax.random.normal(sub, (n_in, n_out)) * np.sqrt(2.0 / n_in),
                       "b": jnp.zeros(n_out)})
    return params


def predict(params, x):
    for layer in params[:-1]:
        x = jnp.tanh(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def loss_fn(params, x, y):
    return jnp.mean((predict(params, x) - y) ** 2)


def adam_init(params):
    zeros = jax.tree.map(jnp.zeros_like, params)
    return {"m": zeros, "v": jax.tree.map(jnp.zeros_like, params), "t": jnp.int32(0)}


def adam_update(grads, state, lr=1e-2, b1=0.9, b2=0.999, eps=1e-8):
    t = state["t"] + 1
    m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads)
    v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, state["v"], grads)
    m_hat = jax.tree.map(lambda m: m / (1 - b1 ** t), m)
    v_hat = jax.tree.map(lambda v: v / (1 - b2 ** t), v)
    updates = jax.tree.map(lambda m, v: -lr * m / (jnp.sqrt(v) + eps), m_hat, v_hat)
    return updates, {"m": m, "v": v, "t": t}


@jax.jit
def train_step(params, opt_state, x, y, key):
    x = x + 0.01 * jax.random.normal(key, x.shape)
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = adam_update(grads, opt_state)
    params = jax.tree.map(lambda p, u: p + u, params, updates)
    return params, opt_state, loss


def main():
    key = jax.random.key(0)
    key, init_key = jax.random.split(key)
    params = init_mlp(init_key, [1, 16, 1])
    opt_state = adam_init(params)
    xs = np.linspace(-3.0, 3.0, 64, dtype=np.float32).reshape(-1, 1)
    ys = np.sin(xs)
    for step in range(201):
        key, step_key = jax.random.split(key)
        params, opt_state, loss = train_step(params, opt_state, xs, ys, step_key)
        if step % 100 == 0:
            print(f"step {step:4d}  loss {float(loss):.4f}")
    print(f"final loss {float(jax.jit(loss_fn)(params, xs, ys)):.4f}")


if __name__ == "__main__":
    main()
'''
