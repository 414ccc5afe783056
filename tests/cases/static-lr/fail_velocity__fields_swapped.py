import jax


def momentum_update(state, gradients, learning_rate, momentum):
    velocity = jax.tree.map(lambda v, g: momentum * v + learning_rate * g, state.velocity, gradients)
    params = jax.tree.map(lambda p, v: p - v, state.params, velocity)
    return type(state)(velocity, params)   # positional order swapped
jitted_momentum_update = __import__("jax").jit(momentum_update)
