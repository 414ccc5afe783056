"""A retrace told against the call before it, not JAX's closest cached key. The step's static
config is one of two frozen (hashable, equal by value) configs, and its state is sometimes a
Python number. The last call differs from the call just before it only by the state's weak type;
JAX 0.10.2, comparing against every key it cached, names the config instead. (The second call is
a weak-type retrace too; the third, a new static config once, is idiomatic.)"""

import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Config:
    scale: float


@functools.partial(jax.jit, static_argnums=1)
def step(total, config):
    return total * config.scale + 1.0


a, b = Config(1.0), Config(0.5)
step(0.0, a)
step(jnp.float32(0.0), a)  # finding: retrace
step(jnp.float32(0.0), b)
total = step(0.0, b)  # finding: retrace
print(total)
