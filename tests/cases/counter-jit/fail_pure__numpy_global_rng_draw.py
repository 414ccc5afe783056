"""Draws from numpy's global RNG on every call (a write outside the call)."""
# says: numpy's global random generator
import numpy as np


def update_counter(count, increment):
    np.random.random()  # 'jitter' that is then thrown away: the global generator moves
    return count + 1, increment
