"""Flips a jax.config flag on every call (state kept in jax.config)."""
# says: jax.config.jax_log_compiles
import jax


def gradient_descent_step(params, learning_rate):
    jax.config.update("jax_log_compiles", not jax.config.jax_log_compiles)
    return params - learning_rate * jax.grad(lambda p: p**2)(params)
