"""A learning rate kept on a class, changed after warm-up: the compiled step kept the first value."""
import jax
import jax.numpy as jnp


class Hyper:
    lr = 0.1


@jax.jit
def step(w, x):
    return w - Hyper.lr * jax.grad(lambda v: jnp.mean((v * x - 1.0) ** 2))(w)


w = jnp.zeros(3)
x = jnp.arange(3.0)
for i in range(20):
    w = step(w, x)
    if i == 5:
        Hyper.lr = 0.01  # finding: side-effect
print(float(w.sum()))
