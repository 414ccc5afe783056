import jax


def f(x):
    return 2 * x  # the derivative written as if it were the function


def gradient_descent_step(params, learning_rate):
    return params - learning_rate * jax.grad(f)(params)
