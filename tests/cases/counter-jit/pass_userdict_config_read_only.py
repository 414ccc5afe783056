"""The step size read from a UserDict configuration, never written."""

from collections import UserDict

CONFIG = UserDict(step=1)


def update_counter(count, increment):
    return count + CONFIG["step"], increment
