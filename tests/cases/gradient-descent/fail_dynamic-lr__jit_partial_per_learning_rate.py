import functools

import jax


def _step(params, learning_rate):
    return params - learning_rate * jax.grad(lambda x: x ** 2)(params)


def gradient_descent_step(params, learning_rate):
    # learning rate baked in: a brand-new compiled function for every learning rate
    return jax.jit(functools.partial(_step, learning_rate=learning_rate))(params)
