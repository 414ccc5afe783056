import jax


def _f(x):
    return x ** 2


_df = jax.jit(jax.grad(_f))


def _step(params, learning_rate):
    return params - learning_rate * _df(params)


gradient_descent_step = jax.jit(_step, static_argnums=())
