"""The derivative by the complex-step trick, Im f(x + ih) / h with h scaled to |x|: exact for x²
at every magnitude, and close for any analytic f, but no autodiff of JAX's is involved."""
# says: complex-step
import jax.numpy as jnp


def f(x):
    return x**2


def gradient_descent_step(params, learning_rate):
    h = 1e-4 * jnp.maximum(1.0, jnp.abs(params))
    slope = jnp.imag(f(params + 1j * h)) / h
    return params - learning_rate * slope.astype(params.dtype)
