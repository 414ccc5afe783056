import jax


def momentum_update(state, gradients, learning_rate, momentum):
    velocity = jax.tree.map(lambda v, g: momentum * v + learning_rate * g, state.velocity, gradients)
    params = jax.tree.map(lambda p, v: p - v, state.params, velocity)
    return state._replace(params=params, velocity=velocity)


jitted_momentum_update = jax.jit(momentum_update, static_argnames="learning_rate")
