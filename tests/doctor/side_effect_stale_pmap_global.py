"""pmap-era code: the pmapped update reads a module global (the momentum) that the loop lowers
after warm-up; pmap compiled the old value in, so every later step keeps using it."""
import jax
import jax.numpy as jnp

MOMENTUM = 0.9


def update(w, v, x):
    g = jax.grad(lambda u: jnp.mean((u * x - 1.0) ** 2))(w)
    v = MOMENTUM * v + g
    return w - 0.05 * v, v


p_update = jax.pmap(update)
n = jax.local_device_count()
w, v, x = jnp.zeros((n, 3)), jnp.zeros((n, 3)), jnp.ones((n, 3))
for step in range(12):
    if step == 4:
        MOMENTUM = 0.5  # finding: side-effect
    w, v = p_update(w, v, x)
print(float(w.sum()))
