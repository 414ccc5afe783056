# says: the derivative of 0.5x²
# never-says: by hand
import jax


def gradient_descent_step(params, learning_rate):
    grad = jax.grad(lambda x: 0.5 * x**2)(params)     # differentiates the wrong function
    return params - learning_rate * grad
