# says: logging.getLogger('rmsprop').steps
# Wrong: the number of updates is kept as an attribute of the logger the module logs with. The
# logger lives in logging's registry, not in this module, so no global holds it; but every caller
# of getLogger('rmsprop') shares it, and it remembers past calls as a global would.
import logging

import jax
import jax.numpy as jnp

log = logging.getLogger  # only the function is kept here: the logger itself is logging's


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return {"s": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        logger = log("rmsprop")
        logger.steps = getattr(logger, "steps", 0) + 1
        s = jax.tree.map(lambda s_, g: rho * s_ + (1 - rho) * g * g, state["s"], grads)
        updates = jax.tree.map(lambda g, s_: -lr * g / (jnp.sqrt(s_) + eps), grads, s)
        return updates, {"s": s}

    return init, update
