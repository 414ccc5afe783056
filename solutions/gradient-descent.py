"""Reference solution: gradient-descent."""

import jax


def f(x):
    """The function to minimise: f(x) = x squared."""
    return x**2


def gradient_descent_step(params, learning_rate):
    """One step downhill: params - learning_rate * f'(params); learning_rate stays dynamic."""
    return params - learning_rate * jax.grad(f)(params)
