# list state, Python-int count, a jitted init, updates built by flatten/unflatten, pair return
import jax
import jax.numpy as jnp
from jax import lax

print("loading my adam module")   # module-level side output is harmless


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    @jax.jit
    def init(params):
        m = jax.tree.map(jnp.zeros_like, params)
        v = jax.tree.map(jnp.zeros_like, params)
        return [0, m, v]

    def update(grads, state, params=None):
        count, m, v = state
        t = count + 1
        g_leaves, treedef = jax.tree.flatten(grads)
        m_leaves = treedef.flatten_up_to(m)
        v_leaves = treedef.flatten_up_to(v)
        new_m = [lax.add(lax.mul(jnp.asarray(b1, g.dtype), a), lax.mul(jnp.asarray(1 - b1, g.dtype), g)) for a, g in zip(m_leaves, g_leaves)]
        new_v = [b2 * a + (1 - b2) * lax.square(g) for a, g in zip(v_leaves, g_leaves)]
        c1 = 1 - b1 ** t
        c2 = 1 - b2 ** t
        ups = [-lr * (a / c1) / (lax.sqrt(b / c2) + eps) for a, b in zip(new_m, new_v)]
        return treedef.unflatten(ups), [t, treedef.unflatten(new_m), treedef.unflatten(new_v)]

    return (init, update)


def apply_updates(params, updates):
    return jax.tree_util.tree_map(lambda p, u: jnp.asarray(p + u, dtype=jnp.result_type(p)), params, updates)
