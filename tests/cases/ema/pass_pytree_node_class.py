"""A hand-registered PyTree class for the train state."""
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class TrainState:
    def __init__(self, step, params, ema_params):
        self.step, self.params, self.ema_params = step, params, ema_params

    def tree_flatten(self):
        return (self.step, self.params, self.ema_params), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    def __repr__(self):
        return f"TrainState(step={self.step}, params={self.params}, ema_params={self.ema_params})"


def mse(params, x, y):
    return jnp.mean((params["w"] * x + params["b"] - y) ** 2)


@jax.jit
def ema_train_step(state: TrainState, x: jax.Array, y: jax.Array, lr: float, decay: float) -> TrainState:
    loss, grads = jax.value_and_grad(mse)(state.params, x, y)
    params = jax.tree.map(lambda p, g: p - lr * g, state.params, grads)
    ema = jax.tree.map(lambda e, p: decay * e + (1.0 - decay) * p, state.ema_params, params)
    return TrainState(state.step + jnp.ones_like(state.step), params, ema)


if __name__ == "__main__":
    s = TrainState(jnp.int32(0), {"w": jnp.float32(0.0), "b": jnp.float32(0.0)}, {"w": jnp.float32(0.0), "b": jnp.float32(0.0)})
    print(ema_train_step(s, jnp.arange(4.0), 2 * jnp.arange(4.0), 0.1, 0.9))
