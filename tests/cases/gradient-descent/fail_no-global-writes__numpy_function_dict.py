"""Counts steps in the __dict__ of a function from another module (jax.grad's result is ours, but the counter sits on a numpy function)."""
# says: np.sum.steps
import jax
import numpy as np


def gradient_descent_step(params, learning_rate):
    np.sum.__dict__["steps"] = np.sum.__dict__.get("steps", 0) + 1
    return params - learning_rate * jax.grad(lambda p: p**2)(params)
