import jax


def f(x):
    return x ** 2


def gradient_descent_step(params, learning_rate):
    lr = float(learning_rate)  # forces a concrete value: breaks under jit
    return params - lr * jax.grad(f)(params)
