"""The same noisy loss and its gradient, but the step is given one key on every pass: the
value-and-gradient pair is one use, the next pass is a reuse."""

import jax
import jax.numpy as jnp

x = jnp.linspace(-1.0, 1.0, 16)


def loss(w, key):
    noise = 0.1 * jax.random.normal(key, x.shape)
    return jnp.mean((w * x + noise - 2.0 * x) ** 2)


@jax.jit
def step(w, key):
    value = loss(w, key)
    grad = jax.grad(loss)(w, key)
    return w - 0.1 * grad, value


key = jax.random.PRNGKey(0)
w = jnp.zeros(())
for _ in range(20):
    w, value = step(w, key)  # finding: key-reuse
print(f"w {float(w):.3f}")
