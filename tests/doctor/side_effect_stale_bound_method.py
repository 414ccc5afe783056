"""A trainer that jits its own bound method once and decays self.lr between calls: the step
read self.lr once, when traced, and every later call runs with the first rate."""

import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, lr):
        self.lr = lr
        self._step = jax.jit(self.step)

    def step(self, w, x, y):
        grad = jax.grad(lambda w: jnp.mean((w * x - y) ** 2))(w)
        return w - self.lr * grad  # finding: side-effect

    def fit(self, x, y, epochs):
        w = jnp.zeros(())
        for _ in range(epochs):
            w = self._step(w, x, y)
            self.lr *= 0.9
        return w


x = jnp.linspace(-1.0, 1.0, 32)
print(float(Trainer(0.1).fit(x, 2.0 * x, 30)))
