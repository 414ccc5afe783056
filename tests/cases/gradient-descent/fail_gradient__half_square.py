import jax
def gradient_descent_step(params, learning_rate):
    return params - learning_rate * jax.grad(lambda x: 0.5 * x ** 2)(params)
