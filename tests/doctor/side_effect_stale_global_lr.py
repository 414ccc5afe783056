"""A module-level learning rate, decayed after each step: the jitted step read it once, when it
was traced, and every later call runs with 0.1."""
import jax
import jax.numpy as jnp

lr = 0.1


@jax.jit
def step(w, x):
    g = jax.grad(lambda v: jnp.mean((v * x - 1.0) ** 2))(w)
    return w - lr * g


w = jnp.float32(0.0)
x = jnp.arange(3.0)
for i in range(20):
    w = step(w, x)
    lr = lr * 0.95  # finding: side-effect
print(float(w))
