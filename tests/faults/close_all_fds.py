"""Fault: closing every file descriptor above stderr, the tutor's event pipe included."""
import os

os.closerange(3, 65536)


def update_counter(count, increment):
    return count + 1, increment
