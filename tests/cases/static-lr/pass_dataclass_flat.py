import dataclasses

import jax


@dataclasses.dataclass(frozen=True)
class MomentumState:
    params: object
    velocity: object


jax.tree_util.register_dataclass(MomentumState, data_fields=["params", "velocity"], meta_fields=[])


def momentum_update(state, gradients, learning_rate, momentum):
    leaves_p, treedef = jax.tree.flatten(state.params)
    leaves_v = treedef.flatten_up_to(state.velocity)
    leaves_g = treedef.flatten_up_to(gradients)
    new_v = [momentum * v + learning_rate * g for v, g in zip(leaves_v, leaves_g)]
    new_p = [p - v for p, v in zip(leaves_p, new_v)]
    return MomentumState(params=treedef.unflatten(new_p), velocity=treedef.unflatten(new_v))


@jax.jit
def jitted_momentum_update(state, gradients, learning_rate, momentum):
    return momentum_update(state, gradients, learning_rate, momentum)
