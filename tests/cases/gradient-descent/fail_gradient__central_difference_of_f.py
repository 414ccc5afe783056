"""A central difference of the module's f with a step scaled to params: close to 2x, no jax.grad."""

# says: overflows float32
import jax.numpy as jnp


def f(x):
    return x**2


def gradient_descent_step(params, learning_rate):
    h = jnp.float32(1e-2) * jnp.maximum(1.0, jnp.abs(params))
    slope = (f(params + h) - f(params - h)) / (2 * h)
    return params - learning_rate * slope
