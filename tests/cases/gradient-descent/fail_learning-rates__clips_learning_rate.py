import jax


def gradient_descent_step(params, learning_rate):
    if learning_rate > 0.5:   # Python `if` on the learning rate
        learning_rate = 0.5
    return params - learning_rate * jax.grad(lambda x: x ** 2)(params)
