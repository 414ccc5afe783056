"""A noisy loss evaluated and then differentiated with the same key, in one step: the
gradient of exactly that value, one use of the key (eagerly and inside a jitted step)."""

import jax
import jax.numpy as jnp

x = jnp.linspace(-1.0, 1.0, 16)


def loss(w, key):
    noise = 0.1 * jax.random.normal(key, x.shape)
    return jnp.mean((w * x + noise - 2.0 * x) ** 2)


key = jax.random.PRNGKey(0)
w = jnp.zeros(())
for _ in range(20):
    key, sub = jax.random.split(key)
    value = loss(w, sub)
    grad = jax.grad(loss)(w, sub)
    w = w - 0.1 * grad


@jax.jit
def step(w, key):
    value = loss(w, key)
    grad = jax.grad(loss)(w, key)
    return w - 0.1 * grad, value


for _ in range(20):
    key, sub = jax.random.split(key)
    w, value = step(w, sub)
print(f"w {float(w):.3f}")
