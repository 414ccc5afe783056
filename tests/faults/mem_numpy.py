"""Fault: one huge NumPy allocation at import (800 GB)."""
import numpy as np

big = np.ones(10**11)


def update_counter(count, increment):
    return count + 1, increment
