"""Clips the gradient to [-100, 100] "for stability": the same for every small params, but far
from the minimum the step is no longer params - learning_rate * 2x."""
# says: far from the minimum

import jax
import jax.numpy as jnp


def f(x):
    return x**2


def gradient_descent_step(params, learning_rate):
    g = jnp.clip(jax.grad(f)(params), -100.0, 100.0)
    return params - learning_rate * g
