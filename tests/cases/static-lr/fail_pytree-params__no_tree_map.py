import jax


def momentum_update(state, gradients, learning_rate, momentum):
    velocity = momentum * state.velocity + learning_rate * gradients
    params = state.params - velocity
    return state._replace(params=params, velocity=velocity)


jitted_momentum_update = jax.jit(momentum_update)
