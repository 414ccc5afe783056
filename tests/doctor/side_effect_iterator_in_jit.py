"""A batch taken with next() inside the jitted step: next() runs once, at trace time, and the
compiled step trains on that first batch on every call."""

import jax
import jax.numpy as jnp


def batches(key, n):
    while True:
        key, sub = jax.random.split(key)
        x = jax.random.normal(sub, (n,))
        yield x, 2.0 * x


def main():
    data = batches(jax.random.key(0), 16)

    @jax.jit
    def step(w):
        x, y = next(data)  # finding: side-effect
        grad = jax.grad(lambda w: jnp.mean((w * x - y) ** 2))(w)
        return w - 0.1 * grad

    w = jnp.zeros(())
    for _ in range(30):
        w = step(w)
    print(f"w {float(w):.3f}")


main()
