"""jax.jit of the same function made anew on every pass: traced once (JAX caches by function),
but each call dispatches through a new jit object."""
import jax
import jax.numpy as jnp


def step(w, x):
    return w - 0.1 * jax.grad(lambda v: jnp.mean((v * x - 1.0) ** 2))(w)


w = jnp.float32(0.0)
x = jnp.arange(3.0)
for _ in range(10):
    w = jax.jit(step)(w, x)  # finding: retrace
print(float(w))
