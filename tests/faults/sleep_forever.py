"""Fault: a sleep that never ends."""
import time


def update_counter(count, increment):
    time.sleep(10**6)
    return count + 1, increment
