from jax import grad


def gradient_descent_step(params, learning_rate):
    slope = grad(lambda x: x * x)(params)
    new_params = params - learning_rate * slope
    return new_params
