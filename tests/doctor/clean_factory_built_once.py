"""A step made by a factory once, before the loop, and a config read only outside jit: nothing to report."""
import jax
import jax.numpy as jnp

config = {"optim": {"lr": 0.1}}


def make_step(lr):
    @jax.jit
    def step(w, x):
        return w - lr * jax.grad(lambda v: jnp.mean((v * x - 1.0) ** 2))(w)

    return step


step = make_step(config["optim"]["lr"])
w = jnp.zeros(3)
x = jnp.arange(3.0)
for i in range(12):
    w = step(w, x)
    config["optim"]["last_step"] = i
losses = jax.device_get(jnp.stack([w.sum(), w.mean()]))
for v in losses:
    print(float(v))
