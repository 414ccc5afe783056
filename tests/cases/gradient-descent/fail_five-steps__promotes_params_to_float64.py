import jax
jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp


def gradient_descent_step(params, learning_rate):
    # the Python-float learning rate is promoted to float64: params change dtype
    lr = jnp.asarray(learning_rate, dtype=jnp.float64)
    return params - lr * jax.grad(lambda x: x ** 2)(params)
