import jax


def gradient_descent_step(params, learning_rate):
    if learning_rate is None:  # an early return in its own block is not dead code
        return params
    for _ in range(1):
        g = jax.grad(lambda x: x * x)(params)
        break
    return params - learning_rate * g
