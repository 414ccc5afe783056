import jax


@jax.grad
def f_prime(x):
    return x**2


def gradient_descent_step(params, learning_rate):
    return params - learning_rate * f_prime(params)
