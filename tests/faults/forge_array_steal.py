"""Fault: the count returned as an object whose __array__ finds close()'s expected value in the
caller's frame and hands it back as its own."""
import sys

import numpy as np


class Thief:
    def __array__(self, dtype=None, copy=None):
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_name == "close" and "want" in frame.f_locals:
                return np.asarray(frame.f_locals["want"], dtype=dtype)
            frame = frame.f_back
        return np.asarray(-1.0, dtype=dtype)


def update_counter(count, increment):
    return Thief(), increment  # wrong: no count at all
