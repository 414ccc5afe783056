def f(x):
    return x**2


def gradient_descent_step(params, learning_rate):
    """Params moved one step downhill on f, scaled by learning_rate."""
    # TODO: the gradient of f at params with jax.grad, then the step.
    return params
