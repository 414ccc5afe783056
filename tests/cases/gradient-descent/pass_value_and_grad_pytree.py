import jax
import jax.numpy as jnp


def loss(p):
    # Works for scalars, arrays and PyTrees of params alike.
    return sum(jnp.sum(leaf ** 2) for leaf in jax.tree.leaves(p))


def gradient_descent_step(params, learning_rate):
    _, grads = jax.value_and_grad(loss)(params)
    return jax.tree.map(lambda p, g: p - learning_rate * g, params, grads)
