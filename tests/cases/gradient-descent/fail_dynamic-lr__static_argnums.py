from functools import partial

import jax


def f(x):
    return x ** 2


@partial(jax.jit, static_argnums=1)
def gradient_descent_step(params, learning_rate):
    return params - learning_rate * jax.grad(f)(params)
