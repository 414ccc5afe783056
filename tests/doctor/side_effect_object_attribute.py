"""A jitted bound method that stores its count on self: self.count ends up a tracer."""
import jax
import jax.numpy as jnp


class Counter:
    def __init__(self):
        self.count = jnp.int32(0)

    def tick(self, x):
        self.count = self.count + 1  # finding: side-effect
        return x * 2


counter = Counter()
tick = jax.jit(counter.tick)
for _ in range(3):
    y = tick(jnp.ones(2))
print(type(counter.count).__name__)
