# drill: 12 cache-key
import jax


def f(x):
    return x ** 2


def _step(params, learning_rate):
    return params - learning_rate * jax.grad(f)(params)


gradient_descent_step = jax.jit(_step, static_argnames="learning_rate")
