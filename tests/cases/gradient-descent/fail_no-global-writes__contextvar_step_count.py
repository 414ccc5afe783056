# says: ContextVar
# Wrong: a ContextVar counts the steps taken; the value outlives every call in this context.
import contextvars

import jax

STEPS = contextvars.ContextVar("steps", default=0)


def f(x):
    return x**2


def gradient_descent_step(params, learning_rate):
    STEPS.set(STEPS.get() + 1)
    return params - learning_rate * jax.grad(f)(params)
