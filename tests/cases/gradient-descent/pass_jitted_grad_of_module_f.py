import jax


def f(x):
    return x ** 2


@jax.jit
def gradient_descent_step(params, learning_rate):
    return params - learning_rate * jax.grad(f)(params)
