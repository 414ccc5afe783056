import jax
jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp


def loss(params):
    return jnp.sum(params * params)


def gradient_descent_step(params, learning_rate):
    grads = jax.grad(loss)(params)
    # keep the params' dtype even though learning_rate is a Python float
    return jax.tree.map(lambda p, g: (p - learning_rate * g).astype(p.dtype), params, grads)
