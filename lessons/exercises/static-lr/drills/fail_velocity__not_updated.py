# drill: 8 velocity-state
import jax


def momentum_update(state, gradients, learning_rate, momentum):
    step = lambda v, g: momentum * v + learning_rate * g  # noqa: E731
    velocity = jax.tree.map(step, state.velocity, gradients)
    params = jax.tree.map(lambda p, v: p - v, state.params, velocity)
    return state._replace(params=params)


jitted_momentum_update = jax.jit(momentum_update)
