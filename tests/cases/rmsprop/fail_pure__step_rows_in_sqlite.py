# says: _db
# Wrong: every step is logged as a row of an in-memory SQLite database kept at module level: a
# history outside the state, in a C object whose rows no container shows.
import sqlite3

import jax
import jax.numpy as jnp

_db = sqlite3.connect(":memory:")
_db.execute("create table steps (rho real)")


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return {"s": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        _db.execute("insert into steps values (?)", (rho,))
        s = jax.tree.map(lambda s, g: rho * s + (1 - rho) * g * g, state["s"], grads)
        updates = jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) + eps), grads, s)
        return updates, {"s": s}

    return init, update
