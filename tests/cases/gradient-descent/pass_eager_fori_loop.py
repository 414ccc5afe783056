import jax
from jax import lax


def f(x):
    return x ** 2


def gradient_descent_step(params, learning_rate):
    # One iteration of a fori_loop: eager control flow traces its body on each call,
    # which is JAX's doing and fine here; under jit it is one program for every rate.
    def body(_, p):
        return p - learning_rate * jax.grad(f)(p)

    return lax.fori_loop(0, 1, body, params)
