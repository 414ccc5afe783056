import jax


def f_with_aux(x):
    return x ** 2, {"x": x}


def gradient_descent_step(params, learning_rate):
    (value, aux), g = jax.value_and_grad(f_with_aux, has_aux=True)(params)
    del value, aux
    return params - learning_rate * g
