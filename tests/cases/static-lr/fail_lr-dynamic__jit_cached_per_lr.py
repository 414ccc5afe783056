import jax


def momentum_update(state, gradients, learning_rate, momentum):
    velocity = jax.tree.map(lambda v, g: momentum * v + learning_rate * g, state.velocity, gradients)
    params = jax.tree.map(lambda p, v: p - v, state.params, velocity)
    return state._replace(params=params, velocity=velocity)


_compiled = {}


def jitted_momentum_update(state, gradients, learning_rate, momentum):
    # one compiled step per learning rate
    if learning_rate not in _compiled:
        _compiled[learning_rate] = jax.jit(lambda s, g, m: momentum_update(s, g, learning_rate, m))
    return _compiled[learning_rate](state, gradients, momentum)
