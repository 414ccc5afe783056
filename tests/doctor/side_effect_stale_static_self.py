"""A jitted method with a static `self` whose learning rate is decayed between calls: the
object keeps the default identity hash, so every call after the first runs the program
compiled with the first rate."""

from functools import partial

import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, lr):
        self.lr = lr

    @partial(jax.jit, static_argnums=0)
    def step(self, w, x, y):
        grad = jax.grad(lambda w: jnp.mean((w * x - y) ** 2))(w)
        return w - self.lr * grad  # finding: side-effect


def main():
    trainer = Trainer(0.1)
    x = jnp.linspace(-1.0, 1.0, 32)
    w = jnp.zeros(())
    for _ in range(30):
        w = trainer.step(w, x, 2.0 * x)
        trainer.lr *= 0.95
    print(f"w {float(w):.3f}")


main()
