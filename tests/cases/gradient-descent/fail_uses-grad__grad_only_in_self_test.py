import jax


def gradient_descent_step(params, learning_rate):
    return params - learning_rate * 2 * params        # the derivative of x**2, by hand


if __name__ == "__main__":
    print(jax.grad(lambda x: x**2)(3.0))
