import jax


def f(x):
    return x ** 2


def gradient_descent_step(params, learning_rate):
    return params - 0.1 * jax.grad(f)(params)
