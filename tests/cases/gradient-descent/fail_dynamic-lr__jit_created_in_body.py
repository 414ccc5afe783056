import jax


def f(x):
    return x ** 2


def gradient_descent_step(params, learning_rate):
    # a fresh jit of a fresh grad on every call: compiles every time
    g = jax.jit(jax.grad(f))(params)
    return params - learning_rate * g
