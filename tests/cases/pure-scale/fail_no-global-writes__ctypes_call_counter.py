"""A call counter in a ctypes integer: no container, no attribute of the learner's own."""

# says: CALLS
import ctypes

CALLS = ctypes.c_long(0)


def scaled(x, scale):
    CALLS.value += 1
    return x * scale
