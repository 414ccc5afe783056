import jax
import jax.numpy as jnp


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        return {
            "step": jnp.array(0, dtype=jnp.int32),
            "mu": jax.tree_util.tree_map(lambda p: jnp.zeros(p.shape, p.dtype), params),
            "nu": jax.tree_util.tree_map(lambda p: jnp.zeros(p.shape, p.dtype), params),
        }

    def update(grads, state, params=None):
        step = state["step"] + 1
        mu = jax.tree_util.tree_map(lambda m, g: m + (1 - b1) * (g - m), state["mu"], grads)
        nu = jax.tree_util.tree_map(lambda v, g: v + (1 - b2) * (jnp.square(g) - v), state["nu"], grads)
        corr1 = 1.0 - jnp.power(b1, step)
        corr2 = 1.0 - jnp.power(b2, step)

        def one(m, v):
            return -lr * (m / corr1) / (jnp.sqrt(v / corr2) + eps)

        return jax.tree_util.tree_map(one, mu, nu), {"step": step, "mu": mu, "nu": nu}

    return init, update


def apply_updates(params, updates):
    return jax.tree_util.tree_map(jnp.add, params, updates)
