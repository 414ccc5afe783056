"""RMSProp with a registered dataclass state that also counts steps; update pre-jitted with partial."""
import dataclasses
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.tree_util.register_dataclass, data_fields=["count", "nu"], meta_fields=[])
@dataclasses.dataclass
class RMSState:
    count: jax.Array
    nu: object


class Optimizer:
    def __init__(self, init, update):
        self.init, self.update = init, update

    def __iter__(self):          # also unpacks as a pair
        return iter((self.init, self.update))


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return RMSState(count=jnp.zeros((), jnp.int32), nu=jax.tree.map(jnp.zeros_like, params))

    @functools.partial(jax.jit, inline=True)
    def update(grads, state, params=None):
        nu = jax.tree.map(lambda n, g: rho * n + (1 - rho) * jnp.square(g), state.nu, grads)
        updates = jax.tree.map(lambda g, n: -lr * g * jnp.reciprocal(jnp.sqrt(n) + eps), grads, nu)
        return updates, RMSState(count=state.count + 1, nu=nu)

    return Optimizer(init, update)


if __name__ == "__main__":
    init, update = rmsprop(0.01)
    p = {"w": jnp.ones(2)}
    s = init(p)
    for i in range(3):
        u, s = update({"w": p["w"] * 2}, s)
        p = jax.tree.map(jnp.add, p, u)
        print(i, p)
