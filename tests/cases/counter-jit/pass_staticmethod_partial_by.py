"""A class's staticmethod, exported through functools.partial."""
import functools
import jax.numpy as jnp
from jax import lax


class Counter:
    @staticmethod
    def step(count, increment, *, by):
        return lax.add(jnp.asarray(count), jnp.ones_like(jnp.asarray(count)) * by), increment


update_counter = functools.partial(Counter.step, by=1)
