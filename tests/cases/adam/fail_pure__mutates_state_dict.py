# Mutant: update assigns into the state dict it was given (PyTorch habit) and returns it.
import jax
import jax.numpy as jnp


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        return {"t": jnp.zeros((), jnp.int32), "m": jax.tree.map(jnp.zeros_like, params),
                "v": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        # PyTorch habit: update the state in place and hand it back
        state["t"] = state["t"] + 1
        state["m"] = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads)
        state["v"] = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, state["v"], grads)
        t = state["t"]
        updates = jax.tree.map(lambda m, v: -lr * (m / (1 - b1 ** t)) / (jnp.sqrt(v / (1 - b2 ** t)) + eps),
                               state["m"], state["v"])
        return updates, state

    return init, update


def apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)
