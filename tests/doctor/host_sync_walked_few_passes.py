"""A jitted epoch returns each batch's loss; the history is extended with that vector once per
epoch. Only 10 epochs, but each walk hands out 12 device values, one dispatch each: 120 at this
line, as a loop of float(losses[i]) would pull."""
import jax
import jax.numpy as jnp


@jax.jit
def epoch(w, xs):
    def step(w, x):
        g = jax.grad(lambda v: jnp.mean((v * x - 1.0) ** 2))(w)
        return w - 0.1 * g, jnp.mean((w * x - 1.0) ** 2)

    return jax.lax.scan(step, w, xs)


w = jnp.float32(0.0)
xs = jnp.arange(12.0 * 4).reshape(12, 4) / 48.0
history = []
for _ in range(10):
    w, losses = epoch(w, xs)
    history.extend(losses)  # finding: host-sync
print(float(w), len(history))
