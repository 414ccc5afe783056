# Right: logs every update through logging, to the terminal: a warning on the root logger (whose
# first use adds a handler) and an info line on a logger first asked for inside update. Logging
# to a stream is output, not a record kept between calls.
import logging

import jax
import jax.numpy as jnp


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return {"s": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        logging.warning("rmsprop update (rho=%s)", rho)
        logging.getLogger("rmsprop.steps").info("one more step")
        s = jax.tree.map(lambda s_, g: rho * s_ + (1 - rho) * g * g, state["s"], grads)
        updates = jax.tree.map(lambda g, s_: -lr * g / (jnp.sqrt(s_) + eps), grads, s)
        return updates, {"s": s}

    return init, update
