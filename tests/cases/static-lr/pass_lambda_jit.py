import jax

tree_map = jax.tree_util.tree_map


def momentum_update(state, gradients, learning_rate, momentum):
    v = tree_map(lambda v_, g_: momentum * v_ + learning_rate * g_, state.velocity, gradients)
    p = tree_map(lambda p_, v_: p_ - v_, state.params, v)
    new_state = state._replace(velocity=v)
    new_state = new_state._replace(params=p)
    return new_state


jitted_momentum_update = jax.jit(lambda s, g, lr, mu: momentum_update(s, g, lr, mu), keep_unused=True)
