"""Clean: the whole training loop inside lax.scan, jitted once; the loss history comes back
as one array and is read once at the end."""
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

key = jax.random.key(1)
k_x, k_noise = jax.random.split(key)
x = jax.random.uniform(k_x, (128, 2), minval=-1.0, maxval=1.0)
y = x @ jnp.array([2.0, -1.0]) + 0.5 + 0.01 * jax.random.normal(k_noise, (128,))


def loss_fn(params, x, y):
    w, b = params
    return jnp.mean((x @ w + b - y) ** 2)


@partial(jax.jit, static_argnames="steps")
def fit(params, x, y, lr, steps):
    def body(carry, _):
        params, velocity = carry
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        velocity = jax.tree.map(lambda v, g: 0.9 * v + g, velocity, grads)
        params = jax.tree.map(lambda p, v: p - lr * v, params, velocity)
        return (params, velocity), loss

    init = (params, jax.tree.map(jnp.zeros_like, params))
    (params, _), losses = lax.scan(body, init, None, length=steps)
    return params, losses


params = (jnp.zeros(2), jnp.float32(0.0))
for lr in (0.05, 0.02):
    fitted, losses = fit(params, x, y, lr, steps=200)
    history = losses.tolist()
    print(f"lr {lr}: first {history[0]:.3f}, last {history[-1]:.5f}")
print("w", fitted[0], "b", fitted[1])
