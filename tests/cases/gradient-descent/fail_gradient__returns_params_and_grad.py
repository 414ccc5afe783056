import jax


def gradient_descent_step(params, learning_rate):
    g = jax.grad(lambda x: x ** 2)(params)
    return params - learning_rate * g, g
