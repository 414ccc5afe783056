"""Globals a jitted step reads: constants never changed (the model's width, a config), and a rate
changed between phases whose phase is a static argument, so the step is traced again with it."""
import functools

import jax
import jax.numpy as jnp

WIDTH = 5
CONFIG = {"decay": 0.01}
lr = 0.1


@functools.partial(jax.jit, static_argnames="phase")
def step(w, x, phase):
    g = jax.grad(lambda v: jnp.mean((v * x - 1.0) ** 2) + CONFIG["decay"] * jnp.sum(v**2))(w)
    return w - lr * g


w = jnp.zeros(WIDTH)
x = jnp.arange(float(WIDTH))
for phase in ("warmup", "main"):
    lr = 0.1 if phase == "warmup" else 0.01
    for _ in range(10):
        w = step(w, x, phase=phase)
print(float(w.sum()))
