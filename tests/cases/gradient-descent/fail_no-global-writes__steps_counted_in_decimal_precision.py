# A step count kept in the decimal module's context (its precision raised by one per step): the
# context is the process's, not the module's, and no witness compared it.
# says: decimal
import decimal

import jax


def f(x):
    return x**2


def gradient_descent_step(params, learning_rate):
    decimal.getcontext().prec += 1
    return params - learning_rate * jax.grad(f)(params)
