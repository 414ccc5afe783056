"""The step returns each example's loss; Python's sum() walks that vector on every step: one
device value and one dispatch per element, each waiting on the last."""
import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    losses = (w * x - 1.0) ** 2
    g = jax.grad(lambda v: jnp.mean((v * x - 1.0) ** 2))(w)
    return w - 0.1 * g, losses


w = jnp.float32(0.0)
x = jnp.arange(8.0)
history = []
for i in range(40):
    w, losses = step(w, x)
    history.append(sum(losses) / len(losses))  # finding: host-sync
print(float(history[-1]))
