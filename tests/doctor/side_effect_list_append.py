"""Losses appended to a list inside the jitted step: the list gets one tracer, once."""
import jax
import jax.numpy as jnp

history = []


@jax.jit
def step(w, x):
    loss = jnp.mean((w * x - 1.0) ** 2)
    history.append(loss)  # finding: side-effect
    return w - 0.1 * jax.grad(lambda v: jnp.mean((v * x - 1.0) ** 2))(w)


w = jnp.float32(0.0)
for _ in range(4):
    w = step(w, jnp.arange(3.0))
print(len(history), "entries")
