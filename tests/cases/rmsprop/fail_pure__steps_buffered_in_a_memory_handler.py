# says: handlers[0].buffer
# Wrong: each update logs a record to a MemoryHandler that never flushes. The records pile up in
# the handler's buffer, a history kept in logging's registry between calls (what a StreamHandler
# writes to the terminal is output; what a MemoryHandler holds is state).
import logging
import logging.handlers

import jax
import jax.numpy as jnp

logging.getLogger("rmsprop.audit").addHandler(logging.handlers.MemoryHandler(capacity=10**6, flushLevel=100))
logging.getLogger("rmsprop.audit").setLevel(logging.DEBUG)


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return {"s": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        logging.getLogger("rmsprop.audit").debug("update with rho=%s", rho)
        s = jax.tree.map(lambda s_, g: rho * s_ + (1 - rho) * g * g, state["s"], grads)
        updates = jax.tree.map(lambda g, s_: -lr * g / (jnp.sqrt(s_) + eps), grads, s)
        return updates, {"s": s}

    return init, update
