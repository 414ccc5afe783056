"""A rate two dicts deep in a config, halved later: the jitted step read it at trace time."""
import jax
import jax.numpy as jnp

config = {"optim": {"lr": 0.1, "momentum": 0.0}}


@jax.jit
def step(w, x):
    return w - config["optim"]["lr"] * jax.grad(lambda v: jnp.mean((v * x - 1.0) ** 2))(w)


w = jnp.zeros(3)
x = jnp.arange(3.0)
for i in range(20):
    w = step(w, x)
    if i % 5 == 4:
        config["optim"]["lr"] /= 2  # finding: side-effect
print(float(w.sum()))
