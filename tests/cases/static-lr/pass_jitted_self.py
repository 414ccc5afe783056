import jax


@jax.jit
def momentum_update(state, gradients, learning_rate, momentum):
    """Already compiled: the plain name and the jitted name are the same function."""
    flat_v, tree = jax.tree.flatten(state.velocity)
    flat_g = tree.flatten_up_to(gradients)
    flat_p = tree.flatten_up_to(state.params)
    new_v = [momentum * v + learning_rate * g for v, g in zip(flat_v, flat_g)]
    new_p = [p - v for p, v in zip(flat_p, new_v)]
    return state._replace(velocity=jax.tree.unflatten(tree, new_v), params=jax.tree.unflatten(tree, new_p))


jitted_momentum_update = momentum_update
