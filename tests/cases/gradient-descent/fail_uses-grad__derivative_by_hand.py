# says: the derivative is written by hand
import jax


def f(x):
    return x ** 2


def gradient_descent_step(params, learning_rate):
    return params - learning_rate * 2.0 * params  # f'(x) = 2x, worked out on paper
