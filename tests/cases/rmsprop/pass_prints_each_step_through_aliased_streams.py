# Right: prints a line per step through module-level aliases of stdout and stderr: output, not a
# record kept between calls.
import sys

import jax
import jax.numpy as jnp

OUT = sys.stdout
ERR = sys.stderr


def rmsprop(lr, rho=0.9, eps=1e-8):
    def init(params):
        return {"s": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        print("step", file=OUT)
        ERR.write("step\n")
        s = jax.tree.map(lambda s, g: rho * s + (1 - rho) * g * g, state["s"], grads)
        updates = jax.tree.map(lambda g, s: -lr * g / (jnp.sqrt(s) + eps), grads, s)
        return updates, {"s": s}

    return init, update
