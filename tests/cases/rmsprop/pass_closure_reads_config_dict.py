# Correct: hyperparameters kept in a dict the closure reads (never writes); a pure helper outside.
import jax
import jax.numpy as jnp


def _rms_step(config, g, s):
    s = config["rho"] * s + (1.0 - config["rho"]) * g**2
    return -config["lr"] * g / (jnp.sqrt(s) + config["eps"]), s


def rmsprop(lr, rho=0.9, eps=1e-8):
    config = {"lr": lr, "rho": rho, "eps": eps}

    def init(params):
        return [jax.tree.map(jnp.zeros_like, params)]

    def update(grads, state, params=None):
        pairs = jax.tree.map(lambda g, s: _rms_step(config, g, s), grads, state[0])
        outer = jax.tree.structure(grads)
        updates, s = jax.tree.transpose(outer, jax.tree.structure((0, 0)), pairs)
        return updates, [s]

    return init, update
