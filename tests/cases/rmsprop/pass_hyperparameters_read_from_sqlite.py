# Right: rho and eps defaults are kept in an in-memory SQLite table written once at import and only
# read afterwards; each call's state comes in and goes out.
import sqlite3

import jax
import jax.numpy as jnp

_db = sqlite3.connect(":memory:")
_db.execute("create table defaults (name text, value real)")
_db.executemany("insert into defaults values (?, ?)", [("rho", 0.9), ("eps", 1e-8)])
_db.commit()


def _default(name):
    return _db.execute("select value from defaults where name = ?", (name,)).fetchone()[0]


def rmsprop(lr, rho=None, eps=None):
    rho = _default("rho") if rho is None else rho
    eps = _default("eps") if eps is None else eps

    def init(params):
        return {"s": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        decay = _default("rho") if rho is None else rho
        s = jax.tree.map(lambda s, g: decay * s + (1 - decay) * g * g, state["s"], grads)
        return jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) + eps), grads, s), {"s": s}

    return init, update
