"""Fault: os._exit(0) after a few correct answers (some checks have already passed)."""
import os

calls = 0


def update_counter(count, increment):
    global calls
    calls += 1
    if calls > 3:
        os._exit(0)
    return count + 1, increment
