import jax
import jax.numpy as jnp

grad_f = jax.grad(jnp.square)


@jax.jit
def gradient_descent_step(params, learning_rate):
    g = grad_f(params)
    return params - learning_rate * g
