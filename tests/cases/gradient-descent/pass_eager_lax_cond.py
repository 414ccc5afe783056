import jax
import jax.numpy as jnp
from jax import lax


def gradient_descent_step(params, learning_rate):
    grad = jax.grad(lambda x: jnp.square(x))(params)
    # a (pointless) branch on the sign of the gradient, both sides the same update
    return lax.cond(grad >= 0, lambda g: params - learning_rate * g, lambda g: params - learning_rate * g, grad)
