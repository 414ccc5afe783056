import jax


def f(x):
    return x ** 2


def gradient_descent_step(params, learning_rate):
    _, slope = jax.value_and_grad(f)(params)
    return params - learning_rate * slope
